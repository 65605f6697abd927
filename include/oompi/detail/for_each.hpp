#ifndef OOMPI_DETAIL_FOR_EACH_HPP
#define OOMPI_DETAIL_FOR_EACH_HPP

// OOMPI_DETAIL_FOR_EACH(m, ctx, a, b, c) expands to m(ctx, a) m(ctx, b) m(ctx, c), for up to
// 48 arguments: the member lists of OOMPI_STRUCT and OOMPI_TRANSPORTABLE.

#define OOMPI_DETAIL_EXPAND(x) x
#define OOMPI_DETAIL_NARG(...) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_NARG_(__VA_ARGS__, OOMPI_DETAIL_RSEQ()))
#define OOMPI_DETAIL_NARG_(...) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_ARG_N(__VA_ARGS__))
#define OOMPI_DETAIL_ARG_N(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
  _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, \
  _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, N, ...) N
#define OOMPI_DETAIL_RSEQ() 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, \
  31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, \
  7, 6, 5, 4, 3, 2, 1, 0
#define OOMPI_DETAIL_CAT(a, b) OOMPI_DETAIL_CAT_(a, b)
#define OOMPI_DETAIL_CAT_(a, b) a##b

#define OOMPI_DETAIL_FOR_EACH(m, ctx, ...) \
  OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_CAT(OOMPI_DETAIL_FE_, OOMPI_DETAIL_NARG(__VA_ARGS__))(m, ctx, __VA_ARGS__))
#define OOMPI_DETAIL_FE_1(m, c, x) m(c, x)
#define OOMPI_DETAIL_FE_2(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_1(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_3(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_2(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_4(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_3(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_5(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_4(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_6(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_5(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_7(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_6(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_8(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_7(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_9(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_8(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_10(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_9(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_11(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_10(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_12(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_11(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_13(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_12(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_14(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_13(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_15(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_14(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_16(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_15(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_17(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_16(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_18(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_17(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_19(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_18(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_20(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_19(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_21(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_20(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_22(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_21(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_23(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_22(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_24(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_23(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_25(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_24(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_26(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_25(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_27(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_26(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_28(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_27(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_29(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_28(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_30(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_29(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_31(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_30(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_32(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_31(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_33(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_32(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_34(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_33(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_35(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_34(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_36(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_35(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_37(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_36(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_38(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_37(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_39(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_38(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_40(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_39(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_41(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_40(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_42(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_41(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_43(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_42(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_44(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_43(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_45(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_44(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_46(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_45(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_47(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_46(m, c, __VA_ARGS__))
#define OOMPI_DETAIL_FE_48(m, c, x, ...) m(c, x) OOMPI_DETAIL_EXPAND(OOMPI_DETAIL_FE_47(m, c, __VA_ARGS__))

#endif  // OOMPI_DETAIL_FOR_EACH_HPP
