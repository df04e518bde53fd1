"""The C++ engine of :mod:`starlib.netsim.simgrid`, compiled at run time by cppyy in a process of its own.

``starlib_simgrid::Run`` builds the SimGrid platform (one host per node and per extra route source, one
split-duplex link per link, one route per message path), starts the packets of every message as SimGrid
communications in the order the schedule releases them (at most one transfer of each message in flight, so a
message is a stream), delivers each transfer's packets the route's latency after its bytes are through (a SimGrid
kernel timer), releases the packets that waited for them and checks their contribution counts.

This file is also the worker script: ``python simgrid_engine.py FOLDER`` reads ``FOLDER/input.npz`` (written by
:func:`starlib.netsim.simgrid.run_schedule`), runs the engine and writes ``FOLDER/result.json``. It imports numpy
and cppyy only (not starlib), and runs in a fresh process because a SimGrid engine can be created once per process
and Debian's SimGrid links Debian's ns-3 libraries, which must not meet the ns-3 of :mod:`starlib.netsim.ns3` in
one process.

Example
-------
>>> "class Run" in SOURCE and "Timer::set" in SOURCE
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
// Packet j of message m is released once every packet it depends on has arrived at m's source; each message sends
// its released packets in release order, at most `batch` of them per SimGrid communication and one communication
// at a time; a communication's packets arrive the route's latency after it completes (the model's latency factor is
// 0, so SimGrid shares the bandwidth only; the engine adds the propagation delay with a kernel timer).
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace starlib_simgrid {
namespace sg4 = simgrid::s4u;

struct Outcome {
  double time = 0.0;         // seconds: the last packet's arrival
  uint64_t hops = 0;         // packet transmissions, one per packet per link of its route
  uint64_t transfers = 0;    // SimGrid communications
  int64_t stalled = -1;      // first message with a packet that never arrived (-1: none)
  int64_t arrived = 0;       // how many of its packets arrived
  int64_t bad = -1;          // first final message with a packet that carries a wrong count (-1: none)
  int64_t bad_packet = -1;
  int64_t bad_count = -1;
};

class Run {
 public:
  Run(int64_t M, const int64_t* route, const int64_t* packets, const int64_t* base, const int64_t* bytes,
      const int64_t* dep_ptr, const int64_t* dep_msg, const int64_t* dep_off, const int64_t* own_lo,
      const int64_t* own_hi, int64_t batch)
      : M_(M), route_(route), P_(packets), base_(base), bytes_(bytes), batch_(batch), queue_(M), inflight_(M),
        pending_(M), arrived_(M, 0) {
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
    dst_.resize(routes);
    latency_.resize(routes);
    route_hops_.resize(routes);
    for (int64_t r = 0; r < routes; ++r) {  // read back from SimGrid: the links it routes over and their latency
      src_[r] = host_[route_src[r]];
      dst_[r] = host_[route_dst[r]];
      std::vector<sg4::Link*> used;
      double lat = 0.0;
      src_[r]->route_to(dst_[r], used, &lat);
      latency_[r] = lat;
      route_hops_[r] = used.size();
    }
  }

  Outcome go(int64_t F, const int64_t* fin_msg, const int64_t* fin_lo, const int64_t* fin_hi, int64_t R) {
    sg4::Activity::on_completion_cb([this](sg4::Activity const& a) { this->done(a); });
    for (int64_t m = 0; m < M_; ++m)
      for (int64_t j = 0; j < P_[m]; ++j)
        if (waiting_[base_[m] + j] == 0) release(m, j);
    kick();
    sg4::Engine::get_instance()->run();
    grave_.clear();
    Outcome out;
    out.time = last_;
    out.hops = hops_;
    out.transfers = transfers_;
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
  // a released packet joins its message's queue; the idle messages send once the event's releases are all in
  void release(int64_t m, int64_t j) {
    if (queue_[m].empty() && !inflight_[m]) ready_.push_back(m);
    queue_[m].push_back(j);
  }
  void kick() {
    for (int64_t m : ready_) send(m);
    ready_.clear();
  }
  void send(int64_t m) {
    std::deque<int64_t>& q = queue_[m];
    int64_t k = std::min<int64_t>(batch_, q.size());
    std::vector<int64_t>& pk = pending_[m];
    pk.assign(q.begin(), q.begin() + k);
    q.erase(q.begin(), q.begin() + k);
    uint64_t size = 0;
    for (int64_t j : pk) size += bytes_[base_[m] + j];
    int64_t r = route_[m];
    sg4::CommPtr c = sg4::Comm::sendto_init(src_[r], dst_[r]);
    c->set_payload_size(size);
    c->set_data(reinterpret_cast<void*>(static_cast<intptr_t>(m)));
    inflight_[m] = c;
    hops_ += k * route_hops_[r];
    ++transfers_;
    c->start();
  }
  void done(const sg4::Activity& a) {
    grave_.clear();  // the communications that completed before this one (SimGrid is done with them)
    int64_t m = static_cast<int64_t>(reinterpret_cast<intptr_t>(a.get_data<void>()));
    grave_.push_back(std::move(inflight_[m]));  // `a` itself: kept alive until SimGrid has finished with it
    inflight_[m] = nullptr;
    std::vector<int64_t> pk = std::move(pending_[m]);
    pending_[m] = std::vector<int64_t>();
    double at = sg4::Engine::get_clock() + latency_[route_[m]];
    simgrid::kernel::timer::Timer::set(at, [this, m, pk = std::move(pk)]() { this->arrive(m, pk); });
    if (!queue_[m].empty()) send(m);
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
    kick();
  }

  int64_t M_;
  const int64_t *route_, *P_, *base_, *bytes_;
  int64_t batch_;
  std::vector<std::deque<int64_t>> queue_;
  std::vector<sg4::CommPtr> inflight_, grave_;
  std::vector<std::vector<int64_t>> pending_;
  std::vector<int64_t> arrived_, count_, waiting_, user_ptr_, user_msg_, user_off_, ready_;
  std::vector<sg4::Host*> host_, src_, dst_;
  std::vector<double> latency_;
  std::vector<int64_t> route_hops_;
  double last_ = 0.0;
  uint64_t hops_ = 0, transfers_ = 0;
};

// The engine of this process (SimGrid allows one): the configuration of the module docstring, logging at warnings.
void start_engine(const std::vector<std::string>& config) {
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
                 a["dep_msg"], a["dep_off"], a["own_lo"], a["own_hi"], int(setup["batch"]))
    run.platform(int(setup["hosts"]), int(setup["links"]), a["rate"], a["delay"], int(setup["routes"]),
                 a["route_src"], a["route_dst"], a["route_ptr"], a["route_link"], a["route_up"])
    out = run.go(int(setup["finals"]), a["fin_msg"], a["fin_lo"], a["fin_hi"], int(setup["ranks"]))
    result = {"time_s": float(out.time), "hops": int(out.hops), "transfers": int(out.transfers),
              "stalled": int(out.stalled), "arrived": int(out.arrived), "bad": int(out.bad),
              "bad_packet": int(out.bad_packet), "bad_count": int(out.bad_count),
              "compile_s": compiled - start, "run_s": time.perf_counter() - compiled,
              "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
    (folder / OUTPUT).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
