/* cli_param.c: see cli_param.h. */
#include <stdlib.h>
#include <string.h>
#include "cli_param.h"
#include "cli.h"
#include "lb_errno.h"
#include "lb_policy.h"

#define WIDTH  79
#define INDENT 24

static const struct {
  char c;
  const char *name;
} shorts[] = {
    {'C', "capacity"},
    {'A', "threshold"},
    {'s', "seed"},
};

void cli_param_option(const lb_param *p, char *buf, size_t len)
{
  snprintf(buf, len, "--%s", p->name);
  for (char *c = buf + 2; *c; c++)
    if (*c == '.' || *c == '_') *c = '-';
}

static char opt_names[CLI_PARAM_MAX][48];

const struct option *cli_param_options(const struct option *own)
{
  static struct option *table;
  if (table) return table;
  size_t nown = 0, np = lb_param_count(), na = lb_param_alias_count();
  while (own && own[nown].name) nown++;
  if (np + na > CLI_PARAM_MAX) cli_die(CLI_EXIT_FAIL, "internal: %zu parameters, room for %d", np + na, CLI_PARAM_MAX);
  if (!(table = calloc(nown + np + na + 1, sizeof *table))) cli_die(CLI_EXIT_FAIL, "out of memory");
  memcpy(table, own, nown * sizeof *table);
  for (size_t k = 0; k < np; k++) {
    const lb_param *p = lb_param_at(k);
    cli_param_option(p, opt_names[k], sizeof opt_names[k]);
    table[nown + k] = (struct option){opt_names[k] + 2, p->type == LB_PARAM_FLAG ? no_argument : required_argument, 0,
                                      CLI_PARAM_VAL + (int)k};
  }
  for (size_t k = 0; k < na; k++)
    table[nown + np + k] =
        (struct option){lb_param_alias_at(k)->name, required_argument, 0, CLI_PARAM_VAL + (int)(np + k)};
  return table;
}

static void set(const lb_param *p, lb_node_params *par, const char *arg, const char *who, unsigned char *given)
{
  if (lb_param_parse(p, par, arg, who)) cli_usage_error("%s", lb_errmsg());
  if (given) given[lb_param_index(p)] = 1;
}

int cli_param_take(int c, const char *arg, lb_node_params *par, unsigned char *given)
{
  size_t np = lb_param_count(), na = lb_param_alias_count();
  char who[64];
  for (size_t k = 0; k < sizeof shorts / sizeof shorts[0]; k++)
    if (c == shorts[k].c) {
      const lb_param *p = lb_param_find(shorts[k].name);
      snprintf(who, sizeof who, "-%c", shorts[k].c);
      set(p, par, arg, who, given);
      return 1;
    }
  if (c < CLI_PARAM_VAL || c >= CLI_PARAM_VAL + (int)(np + na)) return 0;
  size_t k = (size_t)(c - CLI_PARAM_VAL);
  if (k < np) {
    const lb_param *p = lb_param_at(k);
    cli_param_option(p, who, sizeof who);
    set(p, par, p->type == LB_PARAM_FLAG ? "1" : arg, who, given);
    return 1;
  }
  const lb_param_alias *a = lb_param_alias_at(k - np);
  snprintf(who, sizeof who, "--%s", a->name);
  for (size_t j = 0; a->targets[j]; j++) set(lb_param_find(a->targets[j]), par, arg, who, given);
  return 1;
}

/* One entry of --help: `lead` (the option), then `text` from column
 * INDENT (on the next line when the option reaches it), its words
 * wrapped before WIDTH. */
static void entry(FILE *f, const char *lead, const char *text)
{
  int col = fprintf(f, "%s", lead);
  if (col >= INDENT - 1) {
    fputc('\n', f);
    col = 0;
  }
  fprintf(f, "%*s", INDENT - col, "");
  col = INDENT;
  int first = 1;
  while (*text) {
    int w = (int)strcspn(text, " ");
    if (!first && col + 1 + w > WIDTH) {
      fprintf(f, "\n%*s", INDENT, "");
      col = INDENT;
    } else if (!first) {
      fputc(' ', f);
      col++;
    }
    fwrite(text, 1, (size_t)w, f);
    col += w;
    first = 0;
    text += w;
    while (*text == ' ') text++;
  }
  fputc('\n', f);
}

static void value_text(const lb_param *p, const lb_node_params *par, char *buf, size_t len)
{
  if (p->type == LB_PARAM_REAL) snprintf(buf, len, "%g", lb_param_get(p, par));
  else lb_param_format(p, par, buf, len);
}

/* "RMTLB: ", "diffusion: ", "steal: ", or "" for every policy: the
 * papers' acronyms in capitals. */
static void policy_label(const lb_param *p, char *buf, size_t len)
{
  const char *n = p->policy < 0 ? "" : lb_param_policy_name(p);
  int upper = p->policy == LB_POLICY_RMTLB || p->policy == LB_POLICY_LOWEST || p->policy == LB_POLICY_DASUD ||
              p->policy == LB_POLICY_CCHSPMD || p->policy == LB_POLICY_DASUD_RING;
  size_t k = 0;
  for (; n[k] && k + 3 < len; k++) buf[k] = (char)(upper && n[k] >= 'a' && n[k] <= 'z' ? n[k] - 'a' + 'A' : n[k]);
  buf[k] = '\0';
  if (k) snprintf(buf + k, len - k, ": ");
}

void cli_param_help(FILE *f, const lb_node_params *dflt)
{
  fprintf(f, "\nPolicies (--policy NAME; lb/lb_policy.h registers them):\n");
  for (size_t k = 0; k < lb_policy_count(); k++) {
    const lb_policy_desc *d = lb_policy_desc_get((lb_policy)k);
    char lead[48];
    snprintf(lead, sizeof lead, "  %s", d->name);
    entry(f, lead, d->summary ? d->summary : "");
  }
  fprintf(f, "\nParameters of the run, the same in lbsim, lbmaster and lbmpi (lb/lb_param.c;\n"
             "time in the program's unit: simulated time in lbsim, seconds on the farm):\n");
  for (size_t k = 0; k < lb_param_count(); k++) {
    const lb_param *p = lb_param_at(k);
    char opt[48], r[160], v[64], pol[32], lead[96], text[1024], sh[8] = "    ";
    cli_param_option(p, opt, sizeof opt);
    for (size_t j = 0; j < sizeof shorts / sizeof shorts[0]; j++)
      if (!strcmp(shorts[j].name, p->name)) snprintf(sh, sizeof sh, "-%c, ", shorts[j].c);
    snprintf(lead, sizeof lead, "  %s%s%s%s", sh, opt, p->type == LB_PARAM_FLAG ? "" : " ",
             p->type == LB_PARAM_FLAG ? "" : p->arg);
    lb_param_range(p, r, sizeof r);
    value_text(p, dflt, v, sizeof v);
    policy_label(p, pol, sizeof pol);
    snprintf(text, sizeof text, "%s%s; %s (default %s)", pol, p->help, r, v);
    entry(f, lead, text);
  }
  fprintf(f, "\nShorthands:\n");
  for (size_t k = 0; k < lb_param_alias_count(); k++) {
    const lb_param_alias *a = lb_param_alias_at(k);
    char list[512] = "", opt[48], lead[64], text[768];
    size_t n = 0;
    for (size_t j = 0; a->targets[j]; j++) {
      cli_param_option(lb_param_find(a->targets[j]), opt, sizeof opt);
      n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s", j ? ", " : "", opt);
    }
    snprintf(lead, sizeof lead, "  --%s %s", a->name, a->arg);
    if (a->help) snprintf(text, sizeof text, "%s: %s", a->help, list);
    else snprintf(text, sizeof text, "%s", list);
    entry(f, lead, text);
  }
}
