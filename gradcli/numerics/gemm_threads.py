"""How Intel MKL's gemm shares a product between its two threads, and how gradcli makes
each product with the bits of two threads on one (numerics/mkl.py calls it; the rules were
found by watching MKL's threads, docs/developer/numerics.md).  Pure functions of a
product's sizes, transposes and beta."""

from __future__ import annotations


def cut(p, m, n, k):
    """How MKL's gemm with two threads shares the column-major C (m x n) = op(A) (m x k)
    op(B) (k x n) (row-major C = A B is gemm's m = C's columns, n = its rows) between
    them, whatever the transposes, alpha, beta and places: None when the calling thread
    computes it alone, else (axis, at): the first thread computes C's rows (axis 0: m) or
    columns (axis 1: n) before `at`, the second those from `at` (none when `at` reaches
    the end), each with a gemm call into the kernels on its part, with beta 1 after C was
    scaled by beta.  Found by watching each thread's call into the kernels (with a
    debugger, docs/developer/numerics.md):
    * one row or column (a matrix-vector product): alone; k 1 (a rank-one update, whose
      bits are the same on one thread): None too;
    * k at most 4: shared when m or n is above 100; k 5 to 16: above 16; k above 16: always;
    * float64 with n at most 2 m: the rows, at half of m rounded up to a multiple of 12;
    * else the columns, at half of n rounded up to a multiple of 4."""
    if m == 1 or n == 1 or k == 1:
        return None
    if k <= 16 and max(m, n) <= (100 if k <= 4 else 16):
        return None
    if p == "d" and n <= 2 * m:
        return 0, -(-m // 24) * 12
    return 1, -(-n // 8) * 4


def solo(p, rows, cols, k, tb=True):
    """True when MKL's ?gemm of a (rows, k) by (k, cols) product (row-major, either operand
    transposed or not, any beta and alpha, anywhere in memory) gives the same bits on one
    thread as on two, found over tens of thousands of shapes (docs/developer/numerics.md):
    * one row or one column: a matrix-vector product, never shared (False: no thread to
      spare);
    * float32: rows 5 to 11 but 8 (a part of fewer than 4 rows of its own) change;
    * float64: rows not a multiple of 4 change in some shapes, and with k above 256 (more
      than one block of k) and 13 to 35 columns the columns past the last multiple of 12
      change; an even number of columns with the second operand not transposed (tb
      False) never changed."""
    if rows == 1 or cols == 1:
        return False
    if p == "s":
        return rows < 5 or rows == 8 or rows > 11
    return (not rows % 4 and (k <= 256 or cols <= 12 or cols >= 36)) or not (tb or cols % 2)


AS_IS, ALONE = "as is", "alone"


def plan(p, m, n, k, t1, beta):
    """How gradcli makes the column-major gemm (m, n, k; t1: the first operand
    transposed) with MKL's two threads' bits: AS_IS (a matrix-vector product, which MKL
    never hands to a thread), ALONE (one call on one thread: MKL computes it alone, or
    its whole gives the same bits, `solo`, or the first thread takes all of it with beta
    1), or the threads' parts computed one after the other on one thread (cut's (axis,
    at), `shared`): a woken thread costs more CPU (about 17 us) than a small product
    itself.  Beyond the sizes the sharing was checked on (CHECKED), PyTorch's threads
    (where the wake-up is nothing beside the product)."""
    if m == 1 or n == 1:
        return AS_IS
    at = cut(p, m, n, k)
    if at is None or solo(p, n, m, k, t1) or (beta == 1 and at[1] >= (n if at[0] else m)):
        return ALONE
    return at if max(m, n, k) <= CHECKED else AS_IS


CHECKED = 4096  # the largest m, n and k the threads' parts were checked on
