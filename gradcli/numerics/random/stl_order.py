"""The orderings of the C++ standard library (GNU libstdc++) that PyTorch's CPU topk
uses: `std::partial_sort`, `std::nth_element` and `std::sort` with a comparator.
None of them is stable, so where values tie the positions they leave equal elements
in are those of libstdc++'s algorithms: introsort (median-of-three pivot moved to
the front, unguarded Hoare partition, recursion on the right part, heapsort past
2*floor(log2 n) levels, a final insertion sort over runs of 16), introselect, and the
heap of partial_sort.  They are written here step for step as the algorithms are
published (the same moves in the same order), on a Python list with a `less`
function, so ties come out where PyTorch puts them.  Pure Python: meant for the rows
that have ties (topk takes NumPy's way elsewhere)."""

from __future__ import annotations

_THRESHOLD = 16  # libstdc++'s _S_threshold


def _lg(n):
    return n.bit_length() - 1


def _unguarded_linear_insert(a, last, less):
    val = a[last]
    nxt = last - 1
    while less(val, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _insertion_sort(a, first, last, less):
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1 : i + 1] = a[first:i]  # move_backward
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, less)


def _final_insertion_sort(a, first, last, less):
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _swap(a, i, j):
    a[i], a[j] = a[j], a[i]


def _move_median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            _swap(a, result, y)
        elif less(a[x], a[z]):
            _swap(a, result, z)
        else:
            _swap(a, result, x)
    elif less(a[x], a[z]):
        _swap(a, result, x)
    elif less(a[y], a[z]):
        _swap(a, result, z)
    else:
        _swap(a, result, y)


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        _swap(a, first, last)
        first += 1


def _partition_pivot(a, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2  # push_heap
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _make_heap(a, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less):
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def partial_sort(a, first, middle, last, less):
    """std::partial_sort(first, middle, last, less): heap select, then sort_heap."""
    _heap_select(a, first, middle, last, less)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


def _introsort_loop(a, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            partial_sort(a, first, last, last, less)  # heapsort
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def sort(a, first, last, less):
    """std::sort(first, last, less)."""
    if first != last:
        _introsort_loop(a, first, last, 2 * _lg(last - first), less)
        _final_insertion_sort(a, first, last, less)


def nth_element(a, first, nth, last, less):
    """std::nth_element(first, nth, last, less)."""
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            _swap(a, first, nth)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)
