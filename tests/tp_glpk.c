/* tp_glpk.c: see tp_glpk.h.  The constraint matrix of a transportation
 * problem is totally unimodular, so the LP optimum is the integer one. */
#include <stdlib.h>
#include <glpk.h>
#include "tp_glpk.h"

int tp_glpk_cost(size_t m, size_t n, const double *c, const long *supply, const long *demand, double *cost)
{
  return tp_glpk_solve(m, n, c, supply, demand, 0, cost);
}

int tp_glpk_solve(size_t m, size_t n, const double *c, const long *supply, const long *demand, int dual, double *cost)
{
  long S = 0, D = 0;
  for (size_t i = 0; i < m; i++) S += supply[i];
  for (size_t j = 0; j < n; j++) D += demand[j];
  glp_prob *lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_rows(lp, (int)(m + n));
  glp_add_cols(lp, (int)(m * n));
  /* The short side is shipped in full, the long side up to capacity. */
  for (size_t i = 0; i < m; i++)
    glp_set_row_bnds(lp, (int)i + 1, S <= D ? GLP_FX : GLP_UP, S <= D ? (double)supply[i] : 0.0, (double)supply[i]);
  for (size_t j = 0; j < n; j++)
    glp_set_row_bnds(lp, (int)(m + j) + 1, D <= S ? GLP_FX : GLP_UP, D <= S ? (double)demand[j] : 0.0,
                     (double)demand[j]);
  size_t nz = 2 * m * n;
  int *ia = malloc((nz + 1) * sizeof *ia), *ja = malloc((nz + 1) * sizeof *ja);
  double *ar = malloc((nz + 1) * sizeof *ar);
  if (!ia || !ja || !ar) {
    free(ia);
    free(ja);
    free(ar);
    glp_delete_prob(lp);
    return -1;
  }
  size_t k = 1;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) {
      int col = (int)(i * n + j) + 1;
      glp_set_col_bnds(lp, col, GLP_LO, 0.0, 0.0);
      glp_set_obj_coef(lp, col, c[i * n + j]);
      ia[k] = (int)i + 1;
      ja[k] = col;
      ar[k++] = 1.0;
      ia[k] = (int)(m + j) + 1;
      ja[k] = col;
      ar[k++] = 1.0;
    }
  glp_load_matrix(lp, (int)nz, ia, ja, ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.meth = dual ? GLP_DUALP : GLP_PRIMAL;
  int ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
  if (ok) *cost = glp_get_obj_val(lp);
  free(ia);
  free(ja);
  free(ar);
  glp_delete_prob(lp);
  return ok ? 0 : -1;
}
