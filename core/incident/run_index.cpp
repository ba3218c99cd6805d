#include "run_index.h"

#include "metrics/fragmentation.h"
#include "rl/learned_policy.h"
#include "rl/reward_observer.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace schedlab::incident {

namespace {

Status compareLogs(const sim::DecisionLog& replayed, const sim::DecisionLog& recorded)
{
    const auto& a = replayed.decisions();
    const auto& b = recorded.decisions();
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a[i].task != b[i].task || a[i].outcome != b[i].outcome || a[i].node != b[i].node)
            return makeError(ErrorCode::Invalid,
                "the replay departs from the run's decision log at decision " + std::to_string(i) + " (logged: task "
                    + std::to_string(b[i].task) + " " + outcomeName(b[i].outcome) + " on node " + std::to_string(b[i].node)
                    + "; replayed: task " + std::to_string(a[i].task) + " " + outcomeName(a[i].outcome) + " on node "
                    + std::to_string(a[i].node) + "): the trace, the options or the build changed since the run");
    if (a.size() != b.size())
        return makeError(ErrorCode::Invalid, "the replay made " + std::to_string(a.size()) + " decisions, the run logged "
                + std::to_string(b.size()) + ": the trace, the options or the build changed since the run");
    return {};
}

// Every recorded (k, hash) the replay also hashed must be equal.
Status checkHashes(const std::vector<std::pair<int64_t, uint64_t>>& replayed, const std::vector<std::pair<int64_t, uint64_t>>* recorded,
    int& verified)
{
    if (!recorded)
        return {};
    std::map<int64_t, uint64_t> got(replayed.begin(), replayed.end());
    for (const auto& [k, h] : *recorded) {
        auto it = got.find(k);
        if (it == got.end())
            continue;
        if (it->second != h)
            return makeError(ErrorCode::Invalid, "the rebuilt state differs from the recorded one at decision " + std::to_string(k)
                    + ": the trace, the options or the build changed since the run");
        ++verified;
    }
    return {};
}

} // namespace

const char* outcomeName(sim::Outcome o)
{
    switch (o) {
    case sim::Outcome::Placed: return "placed";
    case sim::Outcome::Failed: return "failed";
    case sim::Outcome::Waited: return "waited";
    case sim::Outcome::Evicted: return "evicted";
    case sim::Outcome::Migrated: return "migrated";
    }
    return "?";
}

Result<std::shared_ptr<const RunIndex>> buildRunIndex(std::shared_ptr<const trace::Trace> trace, const sim::RunSpec& spec,
    const sim::DecisionLog* recorded, const std::vector<std::pair<int64_t, uint64_t>>* recordedHashes, ProgressFn progress,
    CancelToken cancel)
{
    if (!trace)
        return makeError(ErrorCode::Invalid, "no trace to replay");
    const auto t0 = std::chrono::steady_clock::now();
    auto policy = rl::makeAnyPolicy(spec.policy, {}, spec.schedulerConfig);
    if (!policy)
        return policy.error();
    rl::RewardObserver reward { rl::RewardConfig {} }; // as workflow::execute recorded the run
    const sim::Observers observers { &reward };
    // Decisions (with the default 8 candidates), the journal they point into and its state
    // hashes; no heat.
    sim::Recording recording;
    recording.heat = false;
    auto index = std::make_shared<RunIndex>();
    index->spec = spec;
    index->trace = trace;
    index->workload = metrics::TypicalWorkload::fromTrace(*trace);
    if (const sim::FillOptions* fo = spec.fillOptions()) {
        sim::FillOptions o = *fo;
        o.stopAt = -1;
        o.fork = {};
        recording.journal = &index->journal;
        auto r = sim::runFillExperiment(
            *trace, *policy.value(), o, recording, observers, std::move(progress), std::move(cancel));
        if (!r)
            return r.error();
        index->decisions = std::move(r->decisions);
        r->decisions = {};
        if (Status s = checkHashes(r->stateHashes, recordedHashes, index->hashesVerified); !s)
            return s.error();
        index->fill = std::make_shared<const sim::FillResult>(std::move(r).value());
    } else {
        sim::TimedOptions o = *spec.timedOptions();
        o.fork = {};
        recording.journal = &index->journal;
        auto r = sim::runTimedReplay(
            *trace, *policy.value(), o, recording, observers, std::move(progress), std::move(cancel));
        if (!r)
            return r.error();
        if (Status s = checkHashes(r->stateHashes, recordedHashes, index->hashesVerified); !s)
            return s.error();
        index->decisions = std::move(r->decisions);
        r->decisions = {};
        index->timed = std::make_shared<const sim::TimedResult>(std::move(r).value());
    }
    if (recorded && recorded->size() > 0) { // runs saved without their decisions have nothing to compare
        if (Status s = compareLogs(index->decisions, *recorded); !s)
            return s.error();
        index->decisionsVerified = int64_t(recorded->size());
    }
    index->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::shared_ptr<const RunIndex>(std::move(index));
}

Result<std::shared_ptr<const RunIndex>> indexFromJournal(std::shared_ptr<const trace::Trace> trace, const sim::RunSpec& spec,
    sim::DecisionLog log, store::StoredJournal journal, std::shared_ptr<const sim::FillResult> fill,
    std::shared_ptr<const sim::TimedResult> timed, const std::vector<std::pair<int64_t, uint64_t>>& hashes)
{
    const auto t0 = std::chrono::steady_clock::now();
    if (!trace || (spec.isFill() ? !fill : !timed))
        return makeError(ErrorCode::Invalid, "the stored journal needs the trace and the stored run result");
    auto bad = [](const std::string& why) { return makeError(ErrorCode::Format, "the stored journal does not fit the run: " + why); };
    const int64_t nOps = int64_t(journal.ops.size());
    for (int64_t p : journal.statePos)
        if (p < 0 || p > nOps)
            return bad("a decision points outside it");
    if (!log.setStatePositions(journal.statePos))
        return bad(std::to_string(journal.statePos.size()) + " positions for " + std::to_string(log.size()) + " decisions");
    for (const sim::Decision& d : log.decisions())
        if (d.task < 0 || std::size_t(d.task) >= trace->tasks.size() || (d.job >= 0 && std::size_t(d.job) >= trace->jobs.size()))
            return bad("a decision names a task the trace does not have");
    auto j = sim::StateJournal::fromOps(cluster::ClusterState(*trace), std::move(journal.ops));
    if (!j)
        return bad(j.error().message);
    auto index = std::make_shared<RunIndex>();
    index->spec = spec;
    index->trace = trace;
    index->workload = metrics::TypicalWorkload::fromTrace(*trace);
    index->journal = std::move(j).value();
    if (index->journal.stateAt(index->journal.position())->stateHash() != journal.finalHash)
        return bad("its final state differs from the run's");
    const auto& ds = log.decisions();
    for (const auto& [k, h] : hashes) {
        if (k < 0 || k >= int64_t(ds.size()))
            continue;
        if (index->journal.stateAt(ds[std::size_t(k)].statePos)->stateHash() != h)
            return bad("the state at decision " + std::to_string(k) + " differs from the recorded one");
        ++index->hashesVerified;
    }
    index->decisions = std::move(log);
    index->fill = std::move(fill);
    index->timed = std::move(timed);
    index->fromStoredJournal = true;
    index->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::shared_ptr<const RunIndex>(std::move(index));
}

int64_t nearestDecision(const RunIndex& index, double x)
{
    const auto& ds = index.decisions.decisions();
    if (ds.empty())
        return -1;
    auto it = std::lower_bound(ds.begin(), ds.end(), x, [](const sim::Decision& d, double v) { return d.timeS < v; });
    if (it == ds.end() || (it != ds.begin() && std::abs(std::prev(it)->timeS - x) < std::abs(it->timeS - x)))
        --it;
    const double t = it->timeS; // the first decision at that time
    while (it != ds.begin() && std::prev(it)->timeS == t)
        --it;
    return int64_t(it - ds.begin());
}

Result<Inspection> inspect(const RunIndex& index, int64_t k, const std::vector<std::string>& rescore, int topK,
    const std::string* schedulerConfig)
{
    const auto& ds = index.decisions.decisions();
    if (k < 0 || k >= int64_t(ds.size()))
        return makeError(ErrorCode::Range, "decision " + std::to_string(k) + " is outside the run's " + std::to_string(ds.size()) + " decisions");
    const trace::Trace& trace = *index.trace;
    Inspection in;
    in.index = k;
    in.decision = ds[std::size_t(k)];
    const sim::Decision& d = in.decision;
    const trace::Task& task = trace.tasks[std::size_t(d.task)];
    in.request = task.request;
    const trace::Job* job = d.job >= 0 ? &trace.jobs[std::size_t(d.job)] : nullptr;
    if (job) {
        in.jobName = std::string(trace.jobNameView(*job));
        in.submitS = job->submitTimeS;
    }
    in.state = index.journal.stateAt(d.statePos);
    if (!in.state)
        return makeError(ErrorCode::Invalid, "the run was replayed without a journal");
    const cluster::ClusterState& state = *in.state;
    const policy::Candidate* top = index.decisions.candidatesOf(d);
    in.candidates.assign(top, top + d.candidateCount);
    for (std::size_t i = 0; i < in.candidates.size(); ++i)
        if (d.outcome == sim::Outcome::Placed && in.candidates[i].node == d.node)
            in.rankOfChoice = int(i) + 1;
    if (const float* r = index.decisions.rewardOf(d)) {
        in.reward.emplace();
        std::copy(r, r + sim::kRewardTerms, in.reward->begin());
    }
    metrics::FragTracker frag(state, index.workload);
    in.gpuAllocPct = 100.0 * double(state.allocGpuMilli()) / double(std::max<int64_t>(1, state.totalGpuMilli()));
    in.cpuAllocPct = 100.0 * double(state.allocCpu()) / double(std::max<int64_t>(1, state.totalCpu()));
    in.gpuFragRatePct = 100.0 * frag.gpuFragRate();
    in.activeNodes = state.activeNodes();
    for (int n = 0; n < state.nodeCount(); ++n)
        ++in.misfits[std::size_t(state.misfit(n, in.request))];
    const policy::TieBreak tie = index.spec.tieBreak();
    for (const std::string& name : rescore) {
        auto p = rl::makeAnyPolicy(name, {}, schedulerConfig ? *schedulerConfig : index.spec.schedulerConfig);
        if (!p)
            return p.error();
        p.value()->setTieBreak(tie, index.spec.seed());
        p.value()->reset(policy::PolicyContext { trace, &frag }, state);
        // A fixed stream per decision, so re-scoring the same decision twice gives the same ties.
        Rng rng(index.spec.seed() ^ (0x9e3779b97f4a7c15ull * uint64_t(k + 1)));
        // As the replays ask: fill experiments give the task only, timed replays the job too.
        const policy::PlacementRequest req { task.request, index.spec.isFill() ? nullptr : job, &task, d.timeS, 0, 0,
            job && !index.spec.isFill() ? job->submitTimeS : -1 };
        Rescored r { name, p.value()->scoresCandidates(), p.value()->place(state, req, rng, topK), -1 };
        for (std::size_t i = 0; i < r.decision.top.size(); ++i)
            if (d.outcome == sim::Outcome::Placed && r.decision.top[i].node == d.node)
                r.rankOfLogged = int(i) + 1;
        in.rescored.push_back(std::move(r));
    }
    return in;
}

} // namespace schedlab::incident
