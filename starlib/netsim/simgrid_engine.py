"""The C++ engine of :mod:`starlib.netsim.simgrid`, compiled at run time by cppyy in a process of its own.

``starlib_simgrid::Run`` builds the SimGrid platform (one host per node and per extra route source, one
split-duplex link per link, one route per message path), gives each message its batch (:mod:`starlib.netsim.simgrid`:
fixed, or the default rule from the longest dependency chain, found by releasing the packets in dependency order
without time), and runs every message as a SimGrid actor on its route's source host: it sends its released packets
in release order, at most one communication in flight (``Comm::send`` into the message's mailbox, whose permanent
receiver on the destination host makes it start at once), and sets a kernel timer that delivers the packets the
route's latency after their bytes are through; the delivery releases the packets that waited for them (waking the
actors of idle messages) and checks their contribution counts. Nothing is detached: SimGrid 3.32 takes each
finished detached communication out of one list by a scan of it.

This file is also the worker script: ``python simgrid_engine.py FOLDER`` reads ``FOLDER/input.npz`` (written by
:func:`starlib.netsim.simgrid.run_schedule`), runs the engine and writes ``FOLDER/result.json``. It imports numpy
and cppyy only (not starlib), and runs in a fresh process because a SimGrid engine can be created once per process
and Debian's SimGrid links Debian's ns-3 libraries, which must not meet the ns-3 of :mod:`starlib.netsim.ns3` in
one process.

Example
-------
>>> all(w in SOURCE for w in ("class Run", "Timer::set", "Comm::send", "set_receiver"))
True
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

SOURCE = r"""
// starlib.netsim.simgrid: a schedule's message streams on SimGrid's flow-level network (JIT-compiled by cppyy).
// Packet j of message m is released once every packet it depends on has arrived at m's source. Each message is a
// SimGrid actor on its route's source host that sends its released packets in release order, at most batch[m] of
// them per communication and one communication at a time, into a mailbox of its own whose permanent receiver sits on
// the route's destination host (so the communication starts at once, host to host). The packets of a finished
// communication arrive the route's latency later (the model's latency factor is 0, so SimGrid shares the bandwidth
// only; the engine adds the propagation delay with a kernel timer), which releases the packets waiting for them and
// wakes the actors of idle messages.
#include <malloc.h>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace starlib_simgrid {
namespace sg4 = simgrid::s4u;

// finished communications a message leaves in its mailbox before it clears them (one simcall per HOLD transfers)
constexpr int64_t HOLD = 8;

struct Outcome {
  double time = 0.0;         // seconds: the last packet's arrival
  uint64_t hops = 0;         // packet transmissions, one per packet per link of its route
  uint64_t transfers = 0;    // SimGrid communications
  int64_t stalled = -1;      // first message with a packet that never arrived (-1: none)
  int64_t arrived = 0;       // how many of its packets arrived
  int64_t bad = -1;          // first final message with a packet that carries a wrong count (-1: none)
  int64_t bad_packet = -1;
  int64_t bad_count = -1;
  int64_t chain = 0;         // packets on the longest dependency chain
  int64_t max_batch = 0;     // the largest batch of any message
};

class Run {
 public:
  Run(int64_t M, const int64_t* route, const int64_t* packets, const int64_t* base, const int64_t* bytes,
      const int64_t* dep_ptr, const int64_t* dep_msg, const int64_t* dep_off, const int64_t* own_lo,
      const int64_t* own_hi)
      : M_(M), route_(route), P_(packets), base_(base), bytes_(bytes), queue_(M), arrived_(M, 0), idle_(M, 0) {
    int64_t total = base[M];
    count_.assign(total, 0);
    waiting_.assign(total, 0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t j = own_lo[m]; j < own_hi[m]; ++j) count_[base[m] + j] = 1;
    user_ptr_.assign(M + 1, 0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = dep_ptr[m]; k < dep_ptr[m + 1]; ++k) {
        int64_t d = dep_msg[k], off = dep_off[k];
        int64_t lo = std::max<int64_t>(0, -off), hi = std::min<int64_t>(P_[m], P_[d] - off);
        for (int64_t j = lo; j < hi; ++j) ++waiting_[base[m] + j];
        ++user_ptr_[d + 1];
      }
    for (int64_t m = 0; m < M; ++m) user_ptr_[m + 1] += user_ptr_[m];
    user_msg_.resize(user_ptr_[M]);
    user_off_.resize(user_ptr_[M]);
    std::vector<int64_t> fill(user_ptr_.begin(), user_ptr_.end() - 1);
    for (int64_t m = 0; m < M; ++m)  // users of each message in message order, then dependency order
      for (int64_t k = dep_ptr[m]; k < dep_ptr[m + 1]; ++k) {
        int64_t d = dep_msg[k];
        user_msg_[fill[d]] = m;
        user_off_[fill[d]++] = dep_off[k];
      }
  }

  void platform(int64_t hosts, int64_t links, const double* rate_Bps, const double* delay_s, int64_t routes,
                const int64_t* route_src, const int64_t* route_dst, const int64_t* route_ptr,
                const int64_t* route_link, const int64_t* route_up) {
    auto* zone = sg4::create_full_zone("network");
    host_.resize(hosts);
    for (int64_t h = 0; h < hosts; ++h) host_[h] = zone->create_host("h" + std::to_string(h), 1.0);
    std::vector<sg4::Link*> link(links);
    for (int64_t i = 0; i < links; ++i) {
      sg4::SplitDuplexLink* l = zone->create_split_duplex_link("l" + std::to_string(i), rate_Bps[i]);
      l->set_latency(delay_s[i]);
      link[i] = l->seal();
    }
    for (int64_t r = 0; r < routes; ++r) {
      std::vector<sg4::LinkInRoute> hops;
      for (int64_t k = route_ptr[r]; k < route_ptr[r + 1]; ++k)
        hops.emplace_back(link[route_link[k]],
                          route_up[k] ? sg4::LinkInRoute::Direction::UP : sg4::LinkInRoute::Direction::DOWN);
      zone->add_route(host_[route_src[r]]->get_netpoint(), host_[route_dst[r]]->get_netpoint(), nullptr, nullptr,
                      hops, false);
    }
    zone->seal();
    src_.resize(routes);
    dst_.assign(route_dst, route_dst + routes);
    latency_.resize(routes);
    route_hops_.resize(routes);
    for (int64_t r = 0; r < routes; ++r) {  // read back from SimGrid: the links it routes over and their latency
      src_[r] = host_[route_src[r]];
      std::vector<sg4::Link*> used;
      double lat = 0.0;
      src_[r]->route_to(host_[route_dst[r]], used, &lat);
      latency_[r] = lat;
      route_hops_[r] = used.size();
    }
  }

  // Packets on the longest dependency chain: the schedule's packets in the order their dependencies release them,
  // without time; a packet that waits for nothing is 1, one that waits for packets one more than the longest of them.
  int64_t chain() const {
    std::vector<int64_t> wait(waiting_), depth(waiting_.size(), 1);
    std::vector<std::pair<int64_t, int64_t>> ready;
    for (int64_t m = 0; m < M_; ++m)
      for (int64_t j = 0; j < P_[m]; ++j)
        if (wait[base_[m] + j] == 0) ready.emplace_back(m, j);
    int64_t longest = 0;
    while (!ready.empty()) {
      auto [m, j] = ready.back();
      ready.pop_back();
      int64_t dg = depth[base_[m] + j];
      longest = std::max(longest, dg);
      for (int64_t u = user_ptr_[m]; u < user_ptr_[m + 1]; ++u) {
        int64_t w = user_msg_[u], jw = j - user_off_[u];
        if (jw < 0 || jw >= P_[w]) continue;
        int64_t g = base_[w] + jw;
        depth[g] = std::max(depth[g], dg + 1);
        if (--wait[g] == 0) ready.emplace_back(w, jw);
      }
    }
    return longest;
  }

  // message m's communications are capped at pace_Bps[m] bytes/s (0: no cap beyond the links')
  void pace(const double* pace_Bps) {
    rate_.resize(M_);
    for (int64_t m = 0; m < M_; ++m) rate_[m] = pace_Bps[m] > 0 ? pace_Bps[m] : -1.0;
  }

  // batch > 0: every message sends up to `batch` packets per communication; batch = 0: message m up to
  // 1 + floor(P_m * num / (den * (L - 1))) with L the longest chain (L - 1 taken as at least 1)
  void batches(int64_t batch, int64_t num, int64_t den) {
    chain_ = chain();
    batch_.assign(M_, batch);
    if (batch == 0) {
      int64_t links = std::max<int64_t>(chain_ - 1, 1);
      for (int64_t m = 0; m < M_; ++m) batch_[m] = 1 + (P_[m] * num) / (den * links);
    }
  }

  Outcome go(int64_t F, const int64_t* fin_msg, const int64_t* fin_lo, const int64_t* fin_hi, int64_t R) {
    std::vector<sg4::ActorPtr> receiver(host_.size());
    mailbox_.resize(M_);
    actor_.resize(M_);
    for (int64_t m = 0; m < M_; ++m) {
      int64_t r = route_[m], h = dst_[r];
      if (!receiver[h]) {  // the permanent receiver of the host's mailboxes: waits for a message nobody sends
        receiver[h] = sg4::Actor::create("r" + std::to_string(h), host_[h],
                                         [] { sg4::Mailbox::by_name("nobody")->get<void>(); });
        receiver[h]->daemonize();
      }
      mailbox_[m] = sg4::Mailbox::by_name("m" + std::to_string(m));
      mailbox_[m]->set_receiver(receiver[h]);
      actor_[m] = sg4::Actor::create("m" + std::to_string(m), src_[r], [this, m] { this->stream(m); });
    }
    for (int64_t m = 0; m < M_; ++m)
      for (int64_t j = 0; j < P_[m]; ++j)
        if (waiting_[base_[m] + j] == 0) release(m, j);
    sg4::Engine::get_instance()->run();
    actor_.clear();
    Outcome out;
    out.time = last_;
    out.hops = hops_;
    out.transfers = transfers_;
    out.chain = chain_;
    out.max_batch = M_ ? *std::max_element(batch_.begin(), batch_.end()) : 0;
    for (int64_t m = 0; m < M_; ++m)
      if (arrived_[m] != P_[m]) {
        out.stalled = m;
        out.arrived = arrived_[m];
        return out;
      }
    for (int64_t f = 0; f < F; ++f)
      for (int64_t j = fin_lo[f]; j < fin_hi[f]; ++j) {
        int64_t c = count_[base_[fin_msg[f]] + j];
        if (c != R) {
          out.bad = fin_msg[f];
          out.bad_packet = j;
          out.bad_count = c;
          return out;
        }
      }
    return out;
  }

 private:
  // a released packet joins its message's queue and wakes the message's actor if it waits for packets
  void release(int64_t m, int64_t j) {
    queue_[m].push_back(j);
    if (idle_[m]) {
      idle_[m] = 0;
      actor_[m]->resume();
    }
  }
  // the actor of message m: one communication at a time (Comm::send starts it and waits for its end in one simcall),
  // then the timer of its arrival; it waits (suspended) while no packet is released and ends after its last packet
  void stream(int64_t m) {
    int64_t sent = 0, held = 0, r = route_[m];
    std::deque<int64_t>& q = queue_[m];
    simgrid::kernel::actor::ActorImpl* self = sg4::Actor::self()->get_impl();
    while (sent < P_[m]) {
      if (q.empty()) {
        idle_[m] = 1;
        sg4::this_actor::suspend();
        continue;
      }
      int64_t k = std::min<int64_t>(batch_[m], q.size());
      std::vector<int64_t> pk(q.begin(), q.begin() + k);
      q.erase(q.begin(), q.begin() + k);
      uint64_t size = 0;
      for (int64_t j : pk) size += bytes_[base_[m] + j];
      hops_ += k * route_hops_[r];
      ++transfers_;
      sent += k;
      sg4::Comm::send(self, mailbox_[m], static_cast<double>(size), rate_[m], &token_, sizeof(void*), nullptr, nullptr,
                      nullptr, -1.0);
      double at = sg4::Engine::get_clock() + latency_[r];
      simgrid::kernel::timer::Timer::set(at, [this, m, pk = std::move(pk)]() { this->arrive(m, pk); });
      if (++held == HOLD || sent == P_[m]) {  // the finished communications wait in the mailbox: let them go
        mailbox_[m]->clear();
        held = 0;
      }
    }
  }
  void arrive(int64_t m, const std::vector<int64_t>& pk) {
    last_ = std::max(last_, sg4::Engine::get_clock());
    for (int64_t j : pk) {
      ++arrived_[m];
      int64_t c = count_[base_[m] + j];
      for (int64_t u = user_ptr_[m]; u < user_ptr_[m + 1]; ++u) {
        int64_t w = user_msg_[u], jw = j - user_off_[u];
        if (jw < 0 || jw >= P_[w]) continue;
        int64_t g = base_[w] + jw;
        count_[g] += c;
        if (--waiting_[g] == 0) release(w, jw);
      }
    }
  }

  int64_t M_;
  const int64_t *route_, *P_, *base_, *bytes_;
  std::vector<std::deque<int64_t>> queue_;
  std::vector<int64_t> arrived_;
  std::vector<char> idle_;
  std::vector<int64_t> count_, waiting_, user_ptr_, user_msg_, user_off_, batch_, dst_;
  std::vector<sg4::Mailbox*> mailbox_;
  std::vector<sg4::ActorPtr> actor_;
  std::vector<sg4::Host*> host_, src_;
  std::vector<double> latency_, rate_;
  std::vector<int64_t> route_hops_;
  int64_t chain_ = 0;
  int token_ = 0;  // the payload of every communication (a mailbox refuses none)
  double last_ = 0.0;
  uint64_t hops_ = 0, transfers_ = 0;
};

// The engine of this process (SimGrid allows one): the configuration of the module docstring, logging at warnings.
// Allocations from 128 KiB on are mapped, not taken from the heap (no growing threshold), so the actors' stacks
// cost the pages they touch only.
void start_engine(const std::vector<std::string>& config) {
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  static int argc = 2;
  static char a0[] = "starlib", a1[] = "--log=root.thres:warning";
  static char* argv[] = {a0, a1, nullptr};
  new sg4::Engine(&argc, argv);  // lives until the worker process exits
  for (const std::string& c : config) sg4::Engine::set_config(c);
}
}  // namespace starlib_simgrid
"""

#: files the worker reads and writes in its folder
INPUT, OUTPUT = "input.npz", "result.json"


def main(argv: list[str]) -> int:
    """The worker: run ``FOLDER/input.npz`` on SimGrid, write ``FOLDER/result.json`` (see the module docstring)."""
    import numpy as np  # noqa: PLC0415
    folder = Path(argv[1])
    start = time.perf_counter()
    with np.load(folder / INPUT) as f:
        setup = json.loads(str(f["setup"][()]))
        # cppyy passes an empty array as no buffer at all: one unused element instead (the lengths go separately)
        a = {k: np.ascontiguousarray(f[k]) if f[k].size else np.zeros(1, f[k].dtype) for k in f.files if k != "setup"}
    import cppyy  # noqa: PLC0415
    cppyy.load_library(setup["library"])
    cppyy.add_include_path(setup["include"])
    cppyy.cppdef(SOURCE)
    ns = cppyy.gbl.starlib_simgrid
    vec = cppyy.gbl.std.vector[cppyy.gbl.std.string]
    ns.start_engine(vec(setup["config"]))
    compiled = time.perf_counter()
    run = ns.Run(int(setup["messages"]), a["route"], a["packets"], a["base"], a["bytes"], a["dep_ptr"],
                 a["dep_msg"], a["dep_off"], a["own_lo"], a["own_hi"])
    run.platform(int(setup["hosts"]), int(setup["links"]), a["rate"], a["delay"], int(setup["routes"]),
                 a["route_src"], a["route_dst"], a["route_ptr"], a["route_link"], a["route_up"])
    run.pace(a["pace"])
    run.batches(int(setup["batch"]), *map(int, setup["error"]))
    out = run.go(int(setup["finals"]), a["fin_msg"], a["fin_lo"], a["fin_hi"], int(setup["ranks"]))
    result = {"time_s": float(out.time), "hops": int(out.hops), "transfers": int(out.transfers),
              "stalled": int(out.stalled), "arrived": int(out.arrived), "bad": int(out.bad),
              "bad_packet": int(out.bad_packet), "bad_count": int(out.bad_count),
              "chain": int(out.chain), "max_batch": int(out.max_batch),
              "compile_s": compiled - start, "run_s": time.perf_counter() - compiled,
              "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
    (folder / OUTPUT).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
