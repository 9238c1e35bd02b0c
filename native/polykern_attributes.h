/*
 * Function attributes the headers share.
 *
 * PK_CALLED marks a routine that generated code calls from many places: the argument checks at every kernel's N-API
 * entry, the GEMM driver's entry and its offset tables at every GEMM call. One copy in the object, not one per call
 * site: inlined at each of a 5-factor kernel's 96 GEMM calls, they made its AVX-512 file compile in 13.6 s instead of
 * 4.4 s, for no gain at run time (each runs once per call, next to work that takes far longer). `unused`: a file that
 * never calls it does not warn.
 */
#ifndef POLYKERN_ATTRIBUTES_H
#define POLYKERN_ATTRIBUTES_H

#define PK_CALLED static __attribute__((noinline, unused))

#endif
