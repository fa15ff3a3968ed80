"""PyTorch's CPU random generator (`generator`), its samplers (`sampling`), and the
C++ standard library's orderings that topk and sort follow (`stl_order`)."""
