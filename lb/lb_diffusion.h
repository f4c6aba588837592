/* lb_diffusion.h: per-edge coefficients of diffusive load balancing
 * (Cybenko's first-order scheme and Ghosh et al.'s second-order SOR
 * form, seed 001).
 *
 * One step of first-order diffusion moves alpha_ij (w_i - w_j) across
 * every edge {i,j}; in matrix form w(t+1) = M w(t) with
 * M = I - L_alpha, L_alpha the Laplacian weighted by the edge
 * coefficients.  A distributed balancer needs only its own degree, its
 * neighbour's degree and, for the global choices, one number computed
 * once from the topology: these functions give exactly that. */
#ifndef LB_DIFFUSION_H
#define LB_DIFFUSION_H

#include <stddef.h>
#include <gsl/gsl_matrix.h>
#include "lb_topo.h"

typedef enum lb_diffusion_kind {
  LB_DIFFUSION_UNIFORM = 0, /* the same alpha on every edge */
  LB_DIFFUSION_BOILLAT = 1, /* 1 / (max(deg i, deg j) + 1) */
  LB_DIFFUSION_OPTIMAL = 2  /* 2 / (lambda_2 + lambda_N) of the Laplacian */
} lb_diffusion_kind;

/* Name ("uniform", "boillat", "optimal") and its inverse. */
const char *lb_diffusion_kind_name(lb_diffusion_kind k);
int lb_diffusion_kind_parse(const char *s, lb_diffusion_kind *k);

/* Coefficient on one edge whose end points have degrees deg_i, deg_j.
 * `alpha` is the global value used by UNIFORM and OPTIMAL (ignored by
 * BOILLAT); it must be finite and > 0.  Degrees must be >= 1. */
int lb_diffusion_edge_alpha(lb_diffusion_kind k, double alpha, size_t deg_i, size_t deg_j, double *out);

/* Boillat's coefficient 1 / (max(deg_i, deg_j) + 1): M stays
 * non-negative and doubly stochastic, so loads never go negative. */
int lb_diffusion_alpha_boillat(size_t deg_i, size_t deg_j, double *out);

/* The best single alpha for a connected graph, 2 / (lambda_2 +
 * lambda_N) of its Laplacian: it minimises max |1 - alpha lambda_k|
 * over k >= 2, the convergence factor of M = I - alpha L. */
int lb_diffusion_alpha_opt(const lb_topo *t, double *alpha);

/* All m edge coefficients of t, in lb_topo edge order.  For OPTIMAL the
 * `alpha` argument is ignored and lb_diffusion_alpha_opt is used. */
int lb_diffusion_edge_alphas(const lb_topo *t, lb_diffusion_kind k, double alpha, double *edge_alpha);

/* The diffusion matrix M = I - L_alpha (n x n, caller-allocated). */
int lb_diffusion_matrix(const lb_topo *t, const double *edge_alpha, gsl_matrix *M);

/* Graphs above this many nodes get LB_ERANGE from the spectral
 * functions below (a dense eigenproblem). */
#define LB_DIFFUSION_DENSE_MAX 4096

/* gamma: the largest |mu| over the eigenvalues mu of M other than the
 * eigenvalue 1 of the uniform vector (the per-step contraction of
 * first-order diffusion).  Fails with LB_ENOCONV when gamma >= 1
 * (alpha too large, or the graph is disconnected). */
int lb_diffusion_gamma(const lb_topo *t, const double *edge_alpha, double *gamma);

/* beta_opt = 2 / (1 + sqrt(1 - gamma^2)) for the second-order form
 * w(t+1) = beta M w(t) + (1 - beta) w(t-1); 0 <= gamma < 1. */
int lb_diffusion_beta_from_gamma(double gamma, double *beta);

/* beta_opt from the spectrum of M built from t and edge_alpha; gamma is
 * also returned when `gamma` is not NULL. */
int lb_diffusion_beta_opt(const lb_topo *t, const double *edge_alpha, double *beta, double *gamma);

#endif
