"""The C++ engine of :mod:`starlib.netsim.ns3`, compiled at run time by cppyy (kept as a string so that it ships
with the package like any module).

``starlib_netsim::Engine`` builds the network (ns-3 nodes joined by point-to-point links, one rate and delay per
link), loads a :class:`~starlib.allreduce.schedule.Schedule`'s messages from its flat arrays in one call, and runs
them: it sends packets straight to the point-to-point devices (protocol 0x0800, no IP stack), forwards each
packet hop by hop along its message's path (store and forward), and releases packet ``j`` of a message once, for
every dependency ``(d, off)`` with ``0 <= j + off < packets(d)``, packet ``j + off`` of ``d`` has arrived at its
source. A paced message (``pace_gbps[m] > 0``) sends its released packets in order, packet ``j`` at
``t_j = max(released_j, t_{j-1} + 8 b_{j-1} / pace)`` (exact, in double-precision nanoseconds) rounded up to the
simulator's nanosecond, through ``Simulator::Schedule`` when that is later than now; an unpaced one sends each
packet the moment it is released. A packet carries an ns-3 packet tag (no bytes on the wire) naming it; its state
lives in flat vectors indexed by the packet's place in the schedule (``chunk_ptr[m] + j``): the contributions
summed into it, the dependencies it still waits for, the hops it has made.

Example
-------
>>> "class Engine" in SOURCE and "void Load(" in SOURCE
True
"""

SOURCE = r"""
// starlib.netsim: a dependency-driven message engine on ns-3 point-to-point links (JIT-compiled by cppyy).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace starlib_netsim {
using namespace ns3;

// Which packet of the schedule a packet is: its flat index g = chunk_ptr[m] + j and its message m.
class PacketId : public Tag {
public:
  uint64_t g = 0;
  uint32_t m = 0;
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("starlib_netsim::PacketId").SetParent<Tag>().SetGroupName("Network");
    return tid;
  }
  TypeId GetInstanceTypeId() const override { return GetTypeId(); }
  uint32_t GetSerializedSize() const override { return 12; }
  void Serialize(TagBuffer b) const override { b.WriteU64(g); b.WriteU32(m); }
  void Deserialize(TagBuffer b) override { g = b.ReadU64(); m = b.ReadU32(); }
  void Print(std::ostream& os) const override { os << "g=" << g << " m=" << m; }
};

class Engine {
public:
  static constexpr uint64_t kCountCap = uint64_t(1) << 62;  // counts saturate here (a wrong schedule can explode)

  // n nodes, L full-duplex links (links[2 l], links[2 l + 1]) of bps[l] bit/s and delay_ns[l]; device 2 l + 0
  // sends from links[2 l] to links[2 l + 1], device 2 l + 1 the other way. Drop-tail queues of queue_packets.
  void Network(int64_t n, int64_t L, const int64_t* links, const int64_t* bps, const int64_t* delay_ns,
               int64_t mtu, int64_t queue_packets) {
    m_nodes.Create(uint32_t(n));
    PointToPointHelper p2p;
    p2p.DisableFlowControl();  // no traffic-control layer above the devices: nothing to tell when queues fill
    p2p.SetDeviceAttribute("Mtu", UintegerValue(uint32_t(mtu)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, uint32_t(queue_packets))));
    m_devs.reserve(2 * L);
    for (int64_t l = 0; l < L; ++l) {
      p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bps[l]))));
      p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(delay_ns[l])));
      NetDeviceContainer d = p2p.Install(m_nodes.Get(uint32_t(links[2 * l])), m_nodes.Get(uint32_t(links[2 * l + 1])));
      m_devs.push_back(PeekPointer(d.Get(0)));
      m_devs.push_back(PeekPointer(d.Get(1)));
    }
    for (uint32_t i = 0; i < m_nodes.GetN(); ++i)
      m_nodes.Get(i)->RegisterProtocolHandler(MakeCallback(&Engine::Receive, this), 0x0800, nullptr, false);
  }

  // M messages. Message m crosses devices hop_dev[path_ptr[m] - m ... path_ptr[m + 1] - m - 1) (one per hop);
  // its packets are g = chunk_ptr[m] .. chunk_ptr[m + 1] - 1, of chunk_bytes[chunk_ids[g]] bytes; its
  // dependencies are (dep_msg[i], dep_off[i]) for dep_ptr[m] <= i < dep_ptr[m + 1]; its source adds its own
  // contribution to packets own_lo[m] <= j < own_hi[m]; it leaves its source at most at pace_gbps[m] Gb/s
  // (0: unpaced).
  void Load(int64_t M, const int64_t* path_ptr, const int64_t* hop_dev, const int64_t* chunk_ptr,
            const int64_t* chunk_ids, const int64_t* chunk_bytes, const int64_t* dep_ptr, const int64_t* dep_msg,
            const int64_t* dep_off, const int64_t* own_lo, const int64_t* own_hi, const double* pace_gbps) {
    m_hop_ptr.resize(M + 1);
    for (int64_t m = 0; m <= M; ++m) m_hop_ptr[m] = path_ptr[m] - m;
    m_hop_dev.assign(hop_dev, hop_dev + m_hop_ptr[M]);
    m_base.assign(chunk_ptr, chunk_ptr + M + 1);
    int64_t G = chunk_ptr[M];
    m_bytes.resize(G);
    for (int64_t g = 0; g < G; ++g) m_bytes[g] = uint32_t(chunk_bytes[chunk_ids[g]]);
    m_count.assign(G, 0);
    m_waiting.assign(G, 0);
    m_hop.assign(G, 0);
    m_arrived.assign(G, 0);
    m_pace.assign(pace_gbps, pace_gbps + M);
    m_free.assign(M, 0.0);
    m_next.assign(chunk_ptr, chunk_ptr + M);
    m_busy.assign(M, 0);
    m_ready.assign(G, 0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t j = own_lo[m]; j < own_hi[m]; ++j) m_count[chunk_ptr[m] + j] = 1;
    // users of each message, as CSR: (w, off) for every dependency (d, off) of w, w increasing
    m_user_ptr.assign(M + 1, 0);
    for (int64_t i = 0; i < dep_ptr[M]; ++i) ++m_user_ptr[dep_msg[i] + 1];
    for (int64_t m = 0; m < M; ++m) m_user_ptr[m + 1] += m_user_ptr[m];
    m_user_msg.resize(dep_ptr[M]);
    m_user_off.resize(dep_ptr[M]);
    std::vector<int64_t> fill(m_user_ptr.begin(), m_user_ptr.end() - 1);
    for (int64_t w = 0; w < M; ++w) {
      int64_t Pw = chunk_ptr[w + 1] - chunk_ptr[w];
      for (int64_t i = dep_ptr[w]; i < dep_ptr[w + 1]; ++i) {
        int64_t d = dep_msg[i], off = dep_off[i], k = fill[d]++;
        m_user_msg[k] = uint32_t(w);
        m_user_off[k] = off;
        int64_t lo = std::max<int64_t>(0, -off), hi = std::min<int64_t>(Pw, chunk_ptr[d + 1] - chunk_ptr[d] - off);
        for (int64_t j = lo; j < hi; ++j) ++m_waiting[chunk_ptr[w] + j];
      }
    }
  }

  // Release every packet that waits for nothing (messages in order, packets in order), then run ns-3.
  void Run() {
    int64_t M = int64_t(m_base.size()) - 1;
    for (int64_t m = 0; m < M; ++m)
      for (int64_t g = m_base[m]; g < m_base[m + 1]; ++g)
        if (m_waiting[g] == 0) Ready(uint32_t(m), g);
    Simulator::Run();
  }

  // Per packet: the contributions it arrived with, or -1 if it never arrived.
  void Results(int64_t* count_out) const {
    for (size_t g = 0; g < m_count.size(); ++g) count_out[g] = m_arrived[g] ? int64_t(m_count[g]) : -1;
  }
  int64_t TimeNs() const { return m_last_ns; }
  uint64_t Hops() const { return m_hops; }
  uint64_t Drops() const { return m_drops; }

private:
  // Packet g of message m is released: sent now if m is unpaced, else in m's order at its pace.
  void Ready(uint32_t m, int64_t g) {
    if (m_pace[m] <= 0) { Emit(m, g); return; }
    m_ready[g] = 1;
    if (!m_busy[m] && g == m_next[m]) Pump(m);
  }
  // Send m's next packets while they are released and due; schedule the first one that is not yet due.
  void Pump(uint32_t m) {
    while (m_next[m] < m_base[m + 1] && m_ready[m_next[m]]) {
      int64_t g = m_next[m], now = Simulator::Now().GetNanoSeconds();
      double t = std::max(double(now), m_free[m]);
      m_free[m] = t + 8.0 * double(m_bytes[g]) / m_pace[m];
      int64_t at = int64_t(std::ceil(t));
      if (at > now) {
        m_busy[m] = 1;
        Simulator::Schedule(NanoSeconds(at - now), &Engine::Fire, this, m);
        return;
      }
      ++m_next[m];
      Emit(m, g);
    }
  }
  void Fire(uint32_t m) {
    m_busy[m] = 0;
    int64_t g = m_next[m]++;
    Emit(m, g);
    Pump(m);
  }
  void Emit(uint32_t m, int64_t g) {
    Ptr<Packet> p = Create<Packet>(m_bytes[g]);
    PacketId id;
    id.g = uint64_t(g);
    id.m = m;
    p->AddPacketTag(id);
    Transmit(m, 0, p);
  }
  void Transmit(uint32_t m, uint32_t hop, Ptr<Packet> p) {
    NetDevice* dev = m_devs[m_hop_dev[m_hop_ptr[m] + hop]];
    ++m_hops;
    if (!dev->Send(p, dev->GetBroadcast(), 0x0800)) ++m_drops;
  }
  void Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&, const Address&,
               NetDevice::PacketType) {
    PacketId id;
    p->PeekPacketTag(id);
    int64_t g = int64_t(id.g);
    uint32_t m = id.m;
    uint32_t hop = ++m_hop[g];
    if (int64_t(hop) < m_hop_ptr[m + 1] - m_hop_ptr[m]) { Transmit(m, hop, p->Copy()); return; }
    m_arrived[g] = 1;
    m_last_ns = Simulator::Now().GetNanoSeconds();
    int64_t j = g - m_base[m];
    uint64_t c = m_count[g];
    for (int64_t k = m_user_ptr[m]; k < m_user_ptr[m + 1]; ++k) {
      uint32_t w = m_user_msg[k];
      int64_t jw = j - m_user_off[k];
      if (jw < 0 || jw >= m_base[w + 1] - m_base[w]) continue;
      int64_t gw = m_base[w] + jw;
      m_count[gw] = std::min(m_count[gw] + c, kCountCap);
      if (--m_waiting[gw] == 0) Ready(w, gw);
    }
  }

  NodeContainer m_nodes;
  std::vector<NetDevice*> m_devs;  // owned by the nodes
  std::vector<int64_t> m_hop_ptr, m_base, m_user_ptr, m_user_off;
  std::vector<uint32_t> m_hop_dev, m_user_msg, m_bytes, m_waiting, m_hop;
  std::vector<uint64_t> m_count;
  std::vector<uint8_t> m_arrived, m_ready, m_busy;
  std::vector<double> m_pace, m_free;  // per message: Gb/s (0: unpaced); earliest departure of its next packet (ns)
  std::vector<int64_t> m_next;         // per message: its next packet to leave (paced messages)
  int64_t m_last_ns = 0;
  uint64_t m_hops = 0, m_drops = 0;
};
}  // namespace starlib_netsim
"""
