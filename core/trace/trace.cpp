#include "trace.h"

#include <algorithm>

namespace schedlab::trace {

namespace {
int intern(std::vector<std::string>& table, const std::string& value, std::size_t limit)
{
    auto it = std::find(table.begin(), table.end(), value);
    if (it != table.end())
        return int(it - table.begin());
    if (table.size() >= limit)
        return -1;
    table.push_back(value);
    return int(table.size() - 1);
}
} // namespace

int32_t LoggedDecisions::internName(std::string_view name)
{
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return int32_t(i);
    names.emplace_back(name);
    return int32_t(names.size() - 1);
}

int Trace::internGpuModel(const std::string& model) { return intern(gpuModels, model, kMaxGpuModels); }

int Trace::internQos(const std::string& qos) { return intern(qosClasses, qos, 32000); }

int Trace::internUser(const std::string& user)
{
    // Users can be many (Google hashes); a linear scan would be quadratic, so callers that intern
    // many users keep their own map (see google_importer.cpp). This is for small tables.
    return intern(users, user, 1u << 30);
}

std::string Trace::jobName(const Job& job) const
{
    return job.nameLength == 0 ? std::to_string(job.id.value) : std::string(jobNameView(job));
}

bool Trace::setJobName(Job& job, std::string_view name)
{
    if (jobNames.size() + name.size() > UINT32_MAX)
        return false;
    job.nameOffset = uint32_t(jobNames.size());
    job.nameLength = uint32_t(name.size());
    jobNames.append(name);
    return true;
}

int64_t Trace::totalGpus() const
{
    int64_t total = 0;
    for (const Node& n : nodes)
        total += n.numGpu;
    return total;
}

} // namespace schedlab::trace
