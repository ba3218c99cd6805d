// libFuzzer targets: autoscaling inputs (core/autoscale): request load files (per-second counts,
// arrivals or timestamp,value CSVs, and .tbz2 archives of them: the first byte picks the file
// name) with SCHEDLAB_FUZZ_AUTOSCALE=0, service files with 1, instance logs (rows after the DLRM
// header) with 2. Any crash, leak, UB or hang is a
// finding; errors are expected outcomes. What reads must be usable: loads are finite and
// non-negative, services have a service time, a target and min <= max; a short replay of either
// finishes.

#include "fuzz_common.h"

#include "autoscale/autoscale_replay.h"
#include "autoscale/instance_log.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace schedlab;
using namespace schedlab::autoscale;

namespace {
void broken(const char* what)
{
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
#if SCHEDLAB_FUZZ_AUTOSCALE == 0
    if (size < 1)
        return 0;
    static const std::string txt = fuzz::inputPath(".txt"), tbz2 = fuzz::inputPath(".tbz2");
    const std::string& path = data[0] % 2 ? tbz2 : txt;
    if (!fuzz::writeInput(path, data + 1, size - 1))
        return 0;
    auto load = readLoadSeries(path, data[0] % 4 >= 2 ? Resample::Interpolated : Resample::Stepped);
    if (!load)
        return 0;
    if (load->requests.empty())
        broken("a load without steps");
    for (float v : load->requests)
        if (!std::isfinite(v) || v < 0)
            broken("a load step is negative or not finite");
    LoadSeries head = *load;
    head.requests.resize(std::min<std::size_t>(head.requests.size(), 3600));
    auto hpa = makeReplicaPolicy("hpa", ServiceConfig {}, nullptr);
    if (!runAutoscale(head, ServiceConfig {}, *hpa))
        broken("a replay of a load that read failed");
#elif SCHEDLAB_FUZZ_AUTOSCALE == 2
    static const std::string path = fuzz::inputPath(".csv");
    static const std::string header = "instance_sn,role,app_name,creation_time,scheduled_time,deletion_time\n";
    std::string text = header;
    text.append(reinterpret_cast<const char*>(data), size);
    if (!fuzz::writeInput(path, reinterpret_cast<const uint8_t*>(text.data()), text.size()))
        return 0;
    auto log = readInstanceLog(path);
    if (!log)
        return 0;
    if (log->instances.empty() || log->apps.empty() || !(log->endS >= 0 && log->endS <= 1e8))
        broken("an instance log without instances or with an end out of range");
    for (int a = 0; a < int(log->apps.size()); ++a) {
        const ReplicaRecord r = replicaRecord(*log, a);
        for (const auto& c : r.changes)
            if (c.second < 0)
                broken("a negative replica count");
        if (!std::isfinite(r.replicaHours()) || r.replicaHours() < 0)
            broken("replica-hours not finite");
    }
    if (log->endS > 1e6)
        return 0; // a demand of up to 10^8 steps is fine but slow for fuzzing
    const ReplicaRecord first = replicaRecord(*log, 0);
    LoadSeries demand = demandOf(replicaRecord(*log, 0, -1, 30), 6);
    demand.requests.resize(std::min<std::size_t>(std::max<std::size_t>(demand.requests.size(), 1), 3600));
    auto logged = makeLoggedPolicy(first);
    if (!runAutoscale(demand, ServiceConfig {}, *logged))
        broken("a replay of a logged record failed");
#else
    static const std::string path = fuzz::inputPath(".json");
    if (!fuzz::writeInput(path, data, size))
        return 0;
    auto service = readServiceConfig(path);
    if (!service)
        return 0;
    if (!(service->serviceTimeS > 0) || !(service->targetUtilization > 0) || service->minReplicas > service->maxReplicas)
        broken("a service that read is unusable");
    for (const OverrideWindow& w : service->overrides)
        if (!(w.toS > w.fromS) || w.replicas < 0)
            broken("an override window that read is empty or negative");
    LoadSeries load;
    load.requests.assign(600, 3.0f);
    for (const char* p : { "hpa", "forecast" }) {
        auto policy = makeReplicaPolicy(p, *service, nullptr);
        if (!runAutoscale(load, *service, *policy))
            broken("a replay with a service that read failed");
    }
#endif
    return 0;
}
