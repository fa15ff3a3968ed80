"""The polynomials of SLEEF's double `pow` (`Sleef_powd4_u10`: its `logk` and `expk`) and
the exponent above which it overflows, shared by the NumPy emulation (sleef_powd.py) and
the compiled kernel (numerics/native_pow.py).  A module of constants alone: the compiled
kernel's module may import it without importing native.py."""

#: c8 .. c0 of logk's polynomial in x^2 (Estrin's scheme, SLEEF's POLY9)
LOG = (
    0.116255524079935043668677,
    0.103239680901072952701192,
    0.117754809412463995466069,
    0.13332981086846273921509,
    0.153846227114512262845736,
    0.181818180850050775676507,
    0.222222222230083560345903,
    0.285714285714249172087875,
    0.400000000000000077715612,
)
#: logk's first term in double-double
LOG_C = (0.666666666666666629659233, 3.80554962542412056336616e-17)
#: c9 .. c0 of expk's polynomial (SLEEF's POLY10)
EXP = (
    2.51069683420950419527139e-08,
    2.76286166770270649116855e-07,
    2.75572496725023574143864e-06,
    2.48014973989819794114153e-05,
    0.000198412698809069797676111,
    0.0013888888939977128960529,
    0.00833333333332371417601081,
    0.0416666666665409524128449,
    0.166666666666666740681535,
    0.500000000000000999200722,
)
#: the exponent (of e) above which pow's result is +inf
OVER = 709.78271114955742909217217426
