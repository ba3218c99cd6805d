#include "logged_view.h"

#include "metrics/fragmentation.h"
#include "rl/learned_policy.h"

#include <algorithm>
#include <cmath>

namespace schedlab::incident {

double loggedTotal(const LoggedView::Candidate& c)
{
    if (c.hasScore)
        return c.score;
    double sum = 0;
    for (const auto& [name, v] : c.terms)
        sum += v;
    return sum;
}

std::optional<LoggedView> loggedView(const trace::Trace& trace, uint32_t task, double timeS)
{
    const trace::LoggedDecisions& l = trace.logged;
    int64_t placed = -1, lastBefore = -1, first = -1;
    int unschedulable = 0;
    for (std::size_t i = 0; i < l.decisions.size(); ++i) {
        const trace::LoggedDecision& d = l.decisions[i];
        if (d.task != task)
            continue;
        if (first < 0)
            first = int64_t(i);
        if (d.outcome == trace::LoggedOutcome::Placed) {
            if (placed < 0)
                placed = int64_t(i);
        } else if (d.timeS <= timeS) {
            lastBefore = int64_t(i);
        }
    }
    const int64_t pick = placed >= 0 ? placed : lastBefore >= 0 ? lastBefore : first;
    if (pick < 0)
        return std::nullopt;
    const trace::LoggedDecision& d = l.decisions[std::size_t(pick)];
    for (std::size_t i = 0; i < std::size_t(pick); ++i)
        unschedulable += l.decisions[i].task == task && l.decisions[i].outcome == trace::LoggedOutcome::Unschedulable;
    LoggedView v;
    v.index = std::size_t(pick);
    v.outcome = d.outcome;
    v.timeS = d.timeS;
    v.node = d.node;
    v.evaluatedNodes = d.evaluatedNodes;
    v.feasibleNodes = d.feasibleNodes;
    v.count = d.count;
    v.unschedulableBefore = unschedulable;
    if (d.source >= 0)
        v.source = l.names[std::size_t(d.source)];
    for (uint32_t i = 0; i < d.reasonCount; ++i) {
        const trace::LoggedReason& r = l.reasons[d.firstReason + i];
        v.reasons.emplace_back(l.names[std::size_t(r.name)], r.nodes);
    }
    for (uint32_t i = 0; i < d.candidateCount; ++i) {
        const trace::LoggedCandidate& c = l.candidates[d.firstCandidate + i];
        LoggedView::Candidate out;
        out.node = c.node;
        out.hasScore = c.hasScore;
        out.score = c.score;
        for (uint32_t k = 0; k < c.termCount; ++k) {
            const trace::LoggedTerm& t = l.terms[c.firstTerm + k];
            out.terms.emplace_back(l.names[std::size_t(t.name)], t.value);
        }
        v.candidates.push_back(std::move(out));
    }
    std::stable_sort(v.candidates.begin(), v.candidates.end(),
        [](const LoggedView::Candidate& a, const LoggedView::Candidate& b) { return loggedTotal(a) > loggedTotal(b); });
    v.tie = v.candidates.size() > 1 && loggedTotal(v.candidates[0]) == loggedTotal(v.candidates[1]);
    return v;
}

Result<LoggedAgreement> compareWithLogged(const RunIndex& index, const std::string& policyName, ProgressFn progressFn, CancelToken cancel,
    const std::string* schedulerConfig)
{
    const trace::Trace& trace = *index.trace;
    LoggedAgreement a;
    a.policy = policyName;
    auto made = rl::makeAnyPolicy(policyName, {}, schedulerConfig ? *schedulerConfig : index.spec.schedulerConfig);
    if (!made)
        return made.error();
    policy::PlacementPolicy& policy = *made.value();
    const auto& ds = index.decisions.decisions();
    ThrottledProgress progress(std::move(progressFn));
    const int allNodes = int(trace.nodes.size());
    for (std::size_t k = 0; k < ds.size(); ++k) {
        if ((k & 255) == 0) {
            if (cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, "comparison cancelled");
            progress.report(double(k) / double(ds.size()));
        }
        const sim::Decision& d = ds[k];
        if (d.outcome != sim::Outcome::Placed)
            continue;
        const auto logged = loggedView(trace, uint32_t(d.task), d.timeS);
        if (!logged || logged->outcome != trace::LoggedOutcome::Placed || logged->candidates.empty())
            continue;
        ++a.placed;
        const auto state = index.journal.stateAt(d.statePos);
        if (!state)
            return makeError(ErrorCode::Invalid, "the run was replayed without a journal");
        metrics::FragTracker frag(*state, index.workload);
        policy.setTieBreak(policy::TieBreak::First, index.spec.seed());
        policy.reset(policy::PolicyContext { trace, &frag }, *state);
        Rng rng(index.spec.seed() ^ (0x9e3779b97f4a7c15ull * uint64_t(k + 1)));
        const trace::Task& task = trace.tasks[std::size_t(d.task)];
        const trace::Job* job = d.job >= 0 ? &trace.jobs[std::size_t(d.job)] : nullptr;
        const policy::PlacementRequest req { task.request, index.spec.isFill() ? nullptr : job, &task, d.timeS, 0, 0,
            job && !index.spec.isFill() ? job->submitTimeS : -1 };
        const policy::PlacementDecision ours = policy.place(*state, req, rng, allNodes);
        // Scores of the logged candidates as the policy gives them.
        for (const LoggedView::Candidate& c : logged->candidates) {
            const auto it = std::find_if(ours.top.begin(), ours.top.end(), [&](const policy::Candidate& x) { return x.node == c.node; });
            if (c.node < 0 || it == ours.top.end())
                continue;
            ++a.scoresCompared;
            a.scoresEqual += std::abs(it->score - loggedTotal(c)) < 1e-9;
        }
        if (logged->tie) {
            ++a.ties;
            continue;
        }
        if (ours.node == logged->node) {
            ++a.agreed;
        } else {
            ++a.disagreed;
            if (a.firstDisagreement.empty()) {
                double ourScore = 0;
                for (const policy::Candidate& x : ours.top)
                    if (x.node == ours.node)
                        ourScore = x.score;
                a.firstDisagreement = "decision " + std::to_string(k) + " (" + trace.jobName(trace.jobs[std::size_t(d.job)])
                    + "): logged node " + std::to_string(logged->node) + " scored " + std::to_string(loggedTotal(logged->candidates[0]))
                    + ", " + policyName + " picks node " + std::to_string(ours.node) + " scoring " + std::to_string(ourScore);
            }
        }
    }
    progress.report(1.0);
    return a;
}

} // namespace schedlab::incident
