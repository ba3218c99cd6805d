#include "queue_policy.h"

#include <algorithm>
#include <cmath>

namespace schedlab::policy {

double queueKey(QueueOrder order, const QueueItem& j, double nowS)
{
    const double wait = std::max(0.0, nowS - j.submitS);
    const double req = std::max(j.requestedS, 1e-9);
    switch (order) {
    case QueueOrder::Fcfs: return j.submitS;
    case QueueOrder::Sjf: return j.requestedS;
    case QueueOrder::Priority: return -double(j.priority);
    case QueueOrder::Wfp3: return -std::pow(wait / req, 3.0) * j.procs;
    case QueueOrder::Unicep: return -wait / (std::log2(std::max(j.procs, 2.0)) * req);
    case QueueOrder::F1: return std::log10(req) * j.procs + 870.0 * std::log10(std::max(j.submitS, 1.0));
    case QueueOrder::FairShare: return j.userShare;
    }
    return j.submitS;
}

namespace {
const std::pair<const char*, QueueOrder> kNames[] = {
    { "fcfs", QueueOrder::Fcfs },
    { "sjf", QueueOrder::Sjf },
    { "priority", QueueOrder::Priority },
    { "wfp3", QueueOrder::Wfp3 },
    { "unicep", QueueOrder::Unicep },
    { "f1", QueueOrder::F1 },
    { "fair", QueueOrder::FairShare },
};
} // namespace

bool parseQueueOrder(const std::string& name, QueueOrder& out)
{
    for (const auto& [n, o] : kNames)
        if (name == n) {
            out = o;
            return true;
        }
    return false;
}

std::string queueOrderName(QueueOrder order)
{
    for (const auto& [n, o] : kNames)
        if (o == order)
            return n;
    return "fcfs";
}

std::vector<std::string> queueOrderNames()
{
    std::vector<std::string> out;
    for (const auto& [n, o] : kNames)
        out.push_back(n);
    return out;
}

} // namespace schedlab::policy
