"""The C++ engine of :mod:`starlib.netsim.simulate`, compiled at run time by cppyy (kept as a string so that it ships
with the package like any module).

``starlib_netsim::Engine`` is an ns-3 ``Object`` that owns a list of messages (a path of node ids, a packet count,
packet sizes, dependencies, an own contribution). It sends packets straight to the point-to-point devices (protocol
0x0800, no IP stack), forwards them hop by hop along their message's path, and releases packet ``j`` of a message
once packet ``j`` of all the messages it depends on has arrived at its source. Each packet carries
``(message, index, count)`` in its first 12 bytes, ``count`` being the number of contributions summed into it.

Example
-------
>>> "class Engine" in SOURCE
True
"""

SOURCE = r"""
// starlib.netsim: a dependency-driven message engine on ns-3 point-to-point links (JIT-compiled by cppyy).
// A message m goes from its path's first node to its last, hop by hop, in packets; packet j of m leaves its
// source once packet j of every message m depends on has arrived there. Each packet carries (message, index,
// count) in its first 12 bytes; count is the number of contributions summed into it (the reduction of ones).
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

namespace starlib_netsim {
using namespace ns3;

class Engine : public Object {
public:
  // one message: path (node ids), packet count, bytes per packet (last one: last_bytes), dependencies
  void AddMessage(const std::vector<uint32_t>& path, uint32_t packets, uint32_t bytes, uint32_t last_bytes,
                  const std::vector<uint32_t>& deps, uint32_t own) {
    uint32_t m = m_path.size();
    m_path.push_back(path); m_packets.push_back(packets); m_bytes.push_back(bytes); m_last.push_back(last_bytes);
    m_deps.push_back(deps); m_own.push_back(own);
    m_waiting.push_back(std::vector<uint32_t>(packets, deps.size()));
    m_count.push_back(std::vector<uint32_t>(packets, own));
    m_arrived.push_back(0);
    for (uint32_t d : deps) m_users[d].push_back(m);
  }
  void SetDevice(uint32_t u, uint32_t v, Ptr<NetDevice> dev) { m_dev[std::make_pair(u, v)] = dev; }
  void Listen(Ptr<Node> node) {
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
      node->RegisterProtocolHandler(MakeCallback(&Engine::Receive, this), 0x0800, node->GetDevice(i), false);
  }
  void Start() {
    for (uint32_t m = 0; m < m_path.size(); ++m)
      if (m_deps[m].empty())
        for (uint32_t j = 0; j < m_packets[m]; ++j) Emit(m, j);
  }
  uint32_t Arrived(uint32_t m) const { return m_arrived[m]; }
  uint32_t Count(uint32_t m, uint32_t j) const {
    auto it = m_final.find(std::make_pair(m, j));
    return it == m_final.end() ? 0 : it->second;
  }
  int64_t Finish(uint32_t m) const { return m_finish.count(m) ? m_finish.at(m) : -1; }
  uint64_t Hops() const { return m_hops; }

private:
  void Send(uint32_t m, uint32_t j, uint32_t hop, uint32_t count) {
    uint32_t size = (j + 1 == m_packets[m]) ? m_last[m] : m_bytes[m];
    std::vector<uint8_t> buf(size, 0);
    uint32_t head[3] = {m, j, count};
    std::memcpy(buf.data(), head, 12);
    Ptr<Packet> p = Create<Packet>(buf.data(), size);
    uint32_t u = m_path[m][hop], v = m_path[m][hop + 1];
    Ptr<NetDevice> dev = m_dev.at(std::make_pair(u, v));
    ++m_hops;
    dev->Send(p, dev->GetBroadcast(), 0x0800);
  }
  void Emit(uint32_t m, uint32_t j) { Send(m, j, 0, m_count[m][j]); }
  void Receive(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t, const Address&, const Address&,
               NetDevice::PacketType) {
    uint32_t head[3];
    p->CopyData(reinterpret_cast<uint8_t*>(head), 12);
    uint32_t m = head[0], j = head[1], count = head[2];
    uint32_t here = dev->GetNode()->GetId();
    const std::vector<uint32_t>& path = m_path[m];
    uint32_t hop = 0;
    while (path[hop] != here) ++hop;
    if (hop + 1 < path.size()) { Send(m, j, hop, count); return; }
    m_final[std::make_pair(m, j)] = count;
    if (++m_arrived[m] == m_packets[m]) m_finish[m] = Simulator::Now().GetNanoSeconds();
    auto it = m_users.find(m);
    if (it == m_users.end()) return;
    for (uint32_t w : it->second) {
      m_count[w][j] += count;
      if (--m_waiting[w][j] == 0) Emit(w, j);
    }
  }
  std::vector<std::vector<uint32_t>> m_path, m_deps, m_waiting, m_count;
  std::vector<uint32_t> m_packets, m_bytes, m_last, m_own, m_arrived;
  std::map<uint32_t, std::vector<uint32_t>> m_users;
  std::map<std::pair<uint32_t, uint32_t>, Ptr<NetDevice>> m_dev;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_final;
  std::map<uint32_t, int64_t> m_finish;
  uint64_t m_hops = 0;
};
}  // namespace starlib_netsim
"""
