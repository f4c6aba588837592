/* lbsg_actor.cpp: the nodes as SimGrid S4U actors (lbsg_actor.h). */
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>
#include <unistd.h>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include "lbsg_actor.h"
#include "lbsg_run.h"
extern "C" {
#include "lb_errno.h"
}

namespace sg4 = simgrid::s4u;

namespace {

/* A message a node sent during its event, posted once the event is
 * over: the actor makes SimGrid calls, never the C code it called. */
struct outgoing { size_t src, dst; lbsg_msg *m; double bytes; };

/* Mailboxes: one per link direction, as a TCP connection between two
 * hosts, so that a link's messages arrive in the order they were sent
 * and no other sender's wait behind them (a SimGrid mailbox hands its
 * messages over in the order they were posted); and one per node for
 * senders that are not its neighbours (--route direct). */
struct world {
  lbsg_run *R = nullptr;
  const lb_topo *t = nullptr;
  std::vector<sg4::Mailbox *> edge;   /* edge[off[j] + k]: j to its k-th neighbour */
  std::vector<sg4::Mailbox *> any;    /* per node: from anyone else */
  std::vector<outgoing> out;          /* the current event's messages */
  bool sizeless = false;              /* infinite bandwidth: messages of 0 bytes */
};

void post(void *ctx, size_t src, size_t dst, lbsg_msg *m, double bytes)
{
  world *w = static_cast<world *>(ctx);
  w->out.push_back({ src, dst, m, w->sizeless ? 0 : bytes });
}

sg4::Mailbox *mailbox(const world &w, size_t src, size_t dst)
{
  const size_t *nb = lb_topo_neighbours(w.t, src), d = lb_topo_degree(w.t, src);
  const size_t *k = std::lower_bound(nb, nb + d, dst);
  return k < nb + d && *k == dst ? w.edge[w.t->off[src] + (size_t)(k - nb)] : w.any[dst];
}

/* The event's messages, posted.  Each put is a SimGrid call, where
 * other actors run and post theirs: the event's messages are this
 * actor's once taken out.  A message travels while its sender goes on,
 * and its receiver, the mailbox's permanent receiver, gets it whenever
 * it arrives.  The sender waits for its puts among its other
 * activities, so that SimGrid forgets each when it is done (a detached
 * put would stay on one list of every put in flight, which SimGrid 3.32
 * searches whole as each ends: quadratic at thousands of nodes). */
void flush(world &w, std::vector<sg4::CommPtr> &puts)
{
  std::vector<outgoing> mine;
  mine.swap(w.out);
  for (const outgoing &o : mine) puts.push_back(mailbox(w, o.src, o.dst)->put_async(o.m, (uint64_t)std::ceil(o.bytes)));
}

/* Node i's life: its arrivals and first check point, then, until the
 * run is over, the earliest of a message, the end of its quantum and
 * its next deadline (an arrival, a held message, a timer). */
void node(world *w, size_t i)
{
  lbsg_run *R = w->R;
  /* Its mailboxes: a receive waiting on each. */
  std::vector<sg4::Mailbox *> in{ w->any[i] };
  for (size_t k = 0; k < lb_topo_degree(w->t, i); k++) in.push_back(mailbox(*w, lb_topo_neighbours(w->t, i)[k], i));
  std::vector<lbsg_msg *> got(in.size(), nullptr);
  std::vector<sg4::CommPtr> comm(in.size());
  for (size_t k = 0; k < in.size(); k++) {
    in[k]->set_receiver(sg4::Actor::self());
    comm[k] = in[k]->get_async<lbsg_msg>(&got[k]);
  }
  const double speed = sg4::this_actor::get_host()->get_speed();
  sg4::ExecPtr exec;
  std::vector<sg4::CommPtr> puts;   /* its messages on their way */
  double now = sg4::Engine::get_clock(), end = -1;
  /* After each event: its messages out, and the quantum it started run
   * as an execution at the host's speed, for the CPU the node's
   * messages took first and then the work. */
  auto after = [&]() {
    flush(*w, puts);
    if (end >= 0) exec = sg4::this_actor::exec_async(std::max(end - now, 0.0) * speed);
  };
  /* What it waits for: its quantum first (at one instant a node ends
   * its quantum before it takes a message, lbsim's order when the
   * quantum began first), its messages, its own puts. */
  std::vector<sg4::ActivityPtr> acts;
  auto waiting = [&]() -> std::vector<sg4::ActivityPtr> & {
    acts.clear();
    if (exec) acts.push_back(exec);
    acts.insert(acts.end(), comm.begin(), comm.end());
    acts.insert(acts.end(), puts.begin(), puts.end());
    return acts;
  };
  /* Activity k of waiting() is done.  (Only waits end activities here:
   * SimGrid 3.32 forgets an activity a test found done only when its
   * actor ends.) */
  auto done = [&](size_t k) {
    if (exec && k == 0) {
      exec = nullptr;
      lbsg_quantum_end(R, i, now, &end);
      after();
      return;
    }
    size_t j = k - (exec ? 1 : 0);
    if (j >= comm.size()) {   /* a message it sent has arrived */
      j -= comm.size();
      puts[j] = puts.back();
      puts.pop_back();
      return;
    }
    lbsg_msg *m = got[j];
    got[j] = nullptr;
    comm[j] = in[j]->get_async<lbsg_msg>(&got[j]);
    lbsg_message(R, i, m, now, &end);
    after();
  };
  lbsg_begin(R, i, now, &end);
  after();
  /* A deadline is kept once SimGrid has settled its date: a message
   * that arrives at that very date may take it a round or two more
   * (latency, then bytes), and must be in before the timers fire, as in
   * lbsim (an answer that arrives as its window closes counts).  Only
   * where a message on its way can arrive now. */
  int settled = 0;
  double settling = -1;
  while (!lbsg_over(R, now)) {
    double due = lbsg_deadline(R, i);
    if (lbsg_reached(now, due)) {
      if (settling != now) {
        settling = now;
        settled = 0;
      }
      if (settled < 2 && lbsg_may_arrive(R, i, now)) {
        ssize_t k = sg4::Activity::wait_any_for(waiting(), 0);
        now = sg4::Engine::get_clock();
        if (k >= 0) done((size_t)k);
        else settled++;
        continue;
      }
      lbsg_due(R, i, now, &end);
      after();
      continue;
    }
    ssize_t k = sg4::Activity::wait_any_for(waiting(), std::isinf(due) ? -1.0 : due - now);
    now = sg4::Engine::get_clock();
    if (k >= 0) done((size_t)k);
  }
  /* Over (or failed): the others wait for messages that will not come. */
  sg4::Actor::kill_all();
}

/* The load CSV's samples, every dt while results are still to come. */
void sampler(world *w, double dt)
{
  /* The first sample after every node's start, as lbsim's. */
  while (!lbsg_started(w->R)) sg4::this_actor::yield();
  lbsg_sample_header(w->R);
  while (lbsg_sample(w->R, sg4::Engine::get_clock())) sg4::this_actor::sleep_for(dt);
}

/* The run's platform: the file given, or lbtopo's for the run's graph
 * and costs, written to a temporary file that goes once loaded. */
int load_platform(const lb_sim_config *c, const lbsg_options *o)
{
  std::string path;
  if (o->platform) path = o->platform;
  else {
    lbsg_zone form;
    lbsg_platform p;
    lbsg_platform_default(&p);
    p.latency = c->latency;
    p.bandwidth = c->bandwidth;
    p.speed = c->node.speed;
    p.speeds = c->speeds;
    p.shared = o->shared;
    p.zone = o->zone;
    int rc = lbsg_platform_form(c->topo, &p, &form);
    if (rc) return rc;
    const char *tmp = getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/lbsimgrid-XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) return lb_error(LB_EIO, "cannot make a platform file %s: %s", path.c_str(), strerror(errno));
    path = name.data();
    FILE *f = fdopen(fd, "w");
    rc = f ? lbsg_platform_write(f, c->topo, &p) : lb_error(LB_EIO, "%s", strerror(errno));
    if (f && fclose(f) && !rc) rc = lb_error(LB_EIO, "%s", strerror(errno));
    if (!f) close(fd);
    if (rc) {
      unlink(path.c_str());
      return lb_error_wrap(rc, "platform file %s", path.c_str());
    }
  }
  int rc = LB_SUCCESS;
  try {
    sg4::Engine::get_instance()->load_platform(path);
  } catch (const std::exception &e) {
    rc = lb_error(LB_EINVAL, "platform %s: %s", path.c_str(), e.what());
  }
  if (!o->platform) unlink(path.c_str());
  return rc;
}

/* The platform has a host n<i> for every node i and no other, with
 * that node's speed, and says it is of this graph if it says. */
int check_platform(const lb_sim_config *c, const lbsg_options *o, std::vector<sg4::Host *> &hosts)
{
  const sg4::Engine *e = sg4::Engine::get_instance();
  const char *what = o->platform ? o->platform : "the platform";
  size_t n = c->topo->n;
  if (e->get_host_count() != n)
    return lb_error(LB_EINVAL, "%s has %zu hosts, the graph %zu nodes", what, e->get_host_count(), n);
  const sg4::NetZone *z = e->netzone_by_name_or_null("lbfarm");
  const char *name = z ? z->get_property("lbfarm/topology") : nullptr;
  if (name && strcmp(name, c->topo->name))
    return lb_error(LB_EINVAL, "%s is of the graph %s, not %s", what, name, c->topo->name);
  hosts.resize(n);
  for (size_t i = 0; i < n; i++) {
    hosts[i] = e->host_by_name_or_null(LBSG_HOST_PREFIX + std::to_string(i));
    if (!hosts[i]) return lb_error(LB_EINVAL, "%s has no host " LBSG_HOST_PREFIX "%zu for node %zu", what, i, i);
    double s = c->speeds ? c->speeds[i] : c->node.speed, hs = hosts[i]->get_speed();
    if (std::fabs(hs - s) > 1e-12 * s)
      return lb_error(LB_EINVAL, "%s: host " LBSG_HOST_PREFIX "%zu has speed %.17g, node %zu %.17g (--speeds)", what,
                      i, hs, i, s);
  }
  return LB_SUCCESS;
}

}  // namespace

int lbsg_simulate(const lb_sim_config *c, lb_sim_result *res, const lbsg_options *o)
{
  memset(res, 0, sizeof *res);
  /* lb/'s allocator is the thread's (lb_mem.h): every actor must run on
   * the thread that set the run up. */
  if (simgrid::config::get_value<std::string>("contexts/factory") == "thread")
    return lb_error(LB_EINVAL, "contexts/factory:thread: lbsimgrid runs its actors on one thread (raw or ucontext)");
  if (!c->topo) return lb_error(LB_EINVAL, "no topology");
  std::vector<sg4::Host *> hosts;
  int rc = load_platform(c, o);
  if (!rc) rc = check_platform(c, o, hosts);
  if (rc) return rc;
  world w;
  /* Links of lbsim's infinite bandwidth (written as 1e30 bytes a second)
   * carry messages of 0 bytes: SimGrid would spend a second round of its
   * clock at each arrival date on the bytes.  The least latency of a
   * link says when a message can arrive. */
  double hop_min = INFINITY, bw_min = INFINITY;
  for (const sg4::Link *l : sg4::Engine::get_instance()->get_all_links()) {
    if (!strncmp(l->get_cname(), "__", 2)) continue;   /* SimGrid's own loopback */
    hop_min = std::min(hop_min, l->get_latency());
    bw_min = std::min(bw_min, l->get_bandwidth());
  }
  w.sizeless = bw_min >= LBSG_BANDWIDTH_INF;
  const lbsg_net net = { post, &w, std::isinf(hop_min) ? 0 : hop_min };
  rc = lbsg_open(c, res, &net, &w.R);
  if (!rc) {
    size_t n = lbsg_nodes(w.R);
    w.t = c->topo;
    w.any.resize(n);
    w.edge.resize(c->topo->off[n]);
    for (size_t i = 0; i < n; i++) {
      w.any[i] = sg4::Mailbox::by_name(hosts[i]->get_name());
      for (size_t k = c->topo->off[i]; k < c->topo->off[i + 1]; k++)
        w.edge[k] = sg4::Mailbox::by_name(hosts[i]->get_name() + ">" + hosts[c->topo->nbr[k]]->get_name());
    }
    /* SimGrid runs the actors due at one date in the order they were
     * made: reversed, they take simultaneous events in another order. */
    for (size_t k = 0; k < n; k++) {
      size_t i = o->reverse ? n - 1 - k : k;
      sg4::Actor::create(hosts[i]->get_name(), hosts[i], node, &w, i);
    }
    if (c->load_csv && c->sample_dt > 0) sg4::Actor::create("sampler", hosts[0], sampler, &w, c->sample_dt);
    try {
      sg4::Engine::get_instance()->run();
    } catch (const std::exception &e) {
      rc = lb_error(LB_ESTATE, "SimGrid stopped: %s", e.what());
    }
    if (!rc) rc = lbsg_status(w.R);
    if (!rc) lbsg_end(w.R);
  }
  lbsg_close(w.R);
  return rc;
}
