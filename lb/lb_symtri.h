/* lb_symtri.h: a few eigenvalues of a small dense symmetric matrix
 * without allocation: Householder reduction to tridiagonal form, then
 * Sturm-sequence bisection for the eigenvalues wanted.
 *
 * Arrangement search needs only lambda_2 and lambda_max of hundreds of
 * thousands of small matrices; computing the whole spectrum (as
 * gsl_eigen_symm does) wastes most of the work.  Bisection also gives
 * each eigenvalue to a chosen relative accuracy, whatever the gaps. */
#ifndef LB_SYMTRI_H
#define LB_SYMTRI_H

#include <stddef.h>

/* Reduce symmetric a (n x n, row-major, both triangles set; destroyed)
 * to tridiagonal form: diagonal d (n), off-diagonal e (n-1).  scratch
 * needs 2n doubles. */
void lb_symtri_reduce(double *a, size_t n, double *d, double *e, double *scratch);

/* Number of eigenvalues of the tridiagonal (d, e2 = squared
 * off-diagonal) that are < sigma. */
size_t lb_symtri_count(const double *d, const double *e2, size_t n, double sigma);

/* The k1-th and k2-th smallest eigenvalues (0-based) of the tridiagonal
 * (d, e2), each to relative accuracy rtol, by two interleaved
 * bisections (independent dependency chains overlap in the CPU). */
void lb_symtri_bisect2(const double *d, const double *e2, size_t n, size_t k1, size_t k2, double rtol, double *x1,
                       double *x2);

/* The k-th smallest eigenvalue (0-based) to relative accuracy rtol:
 * bisection until it is alone in its bracket, then Illinois regula
 * falsi on det(T - sigma I), which needs far fewer steps than
 * bisection alone.  A multiple eigenvalue is found by bisection. */
double lb_symtri_kth(const double *d, const double *e2, size_t n, size_t k, double rtol);

#endif
