#pragma once
// Builds tiny traces in code for hand-computed simulator tests.

#include "trace/trace.h"

#include <string>

namespace schedlab::test {

class TraceBuilder {
public:
    TraceBuilder& node(int64_t cpuMilli, int64_t memMiB, int gpus, int16_t model = -1)
    {
        trace::Node n;
        n.name = std::string("n").append(std::to_string(t.nodes.size()));
        n.cpuMilli = cpuMilli;
        n.memMiB = memMiB;
        n.numGpu = gpus;
        n.gpuModel = gpus > 0 ? (model >= 0 ? model : int16_t(0)) : int16_t(-1);
        if (gpus > 0 && t.gpuModels.empty())
            t.gpuModels.push_back("G");
        t.nodes.push_back(n);
        return *this;
    }
    /// A single-task job; numGpu/gpuMilli as in TaskRequest.
    TraceBuilder& task(int64_t cpuMilli, int64_t memMiB, int numGpu, int gpuMilli, double submitS = 0, double runS = 10,
        const std::string& name = {})
    {
        trace::Job j;
        j.id = trace::JobId { int64_t(t.jobs.size()) };
        t.setJobName(j, name.empty() ? std::string("p").append(std::to_string(1000 + t.jobs.size())) : name);
        j.submitTimeS = submitS;
        j.runTimeS = runS;
        j.requestedTimeS = runS;
        j.firstTask = uint32_t(t.tasks.size());
        j.taskCount = 1;
        trace::Task task;
        task.request = trace::TaskRequest { cpuMilli, memMiB, numGpu, gpuMilli, 0 };
        t.tasks.push_back(task);
        t.jobs.push_back(j);
        return *this;
    }
    trace::Trace t;
};

} // namespace schedlab::test
