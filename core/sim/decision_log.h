#pragma once
/// Every placement decision of a run: when, which task, what was chosen (or that it failed or
/// waited), how many nodes were feasible, and the top candidates with their scores.

#include "policy/placement_policy.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace schedlab::sim {

enum class Outcome : int8_t {
    Placed = 0,
    Failed = 1, ///< fits nowhere (fill experiment: rejected; timed: can never run)
    Waited = 2, ///< no room now; stays queued
    Evicted = 3, ///< timed: a running unit stopped to make room for a more important one (node: where it ran)
    Migrated = 4, ///< timed: a running unit moved to make room (node: where it went)
};

struct Decision {
    double timeS = 0; ///< simulation time (fill experiment: pod sequence number)
    int32_t job = -1; ///< index into Trace::jobs
    int32_t task = -1; ///< index into Trace::tasks
    int32_t node = -1;
    Outcome outcome = Outcome::Placed;
    int32_t feasible = 0;
    uint32_t firstCandidate = 0; ///< into DecisionLog::candidates
    uint16_t candidateCount = 0;
    int32_t reward = -1; ///< into DecisionLog::rewardOf; -1 = no reward recorded
    /// The run's state position when the decision was made (replay_observer.h): the operations
    /// of its StateJournal applied then, so the cluster it saw is journal.stateAt(statePos); -1 =
    /// run without a journal (Recording::journal). Stored with a project's journal only.
    int64_t statePos = -1;
};

/// Reward terms of a decision: balance, packing, success, custom, tail, total (rl::RewardObserver).
inline constexpr int kRewardTerms = 6;

/// Decisions of one run, candidates stored flat. Not thread-safe.
class DecisionLog {
public:
    /// Appends a decision; returns its index.
    std::size_t add(Decision d, const std::vector<policy::Candidate>& top)
    {
        d.firstCandidate = uint32_t(m_candidates.size());
        d.candidateCount = uint16_t(top.size());
        m_candidates.insert(m_candidates.end(), top.begin(), top.end());
        d.reward = -1;
        m_decisions.push_back(d);
        return m_decisions.size() - 1;
    }
    /// Appends a decision with its reward terms (kRewardTerms of them, else none): a log read back.
    std::size_t add(Decision d, const std::vector<policy::Candidate>& top, const std::vector<float>& reward)
    {
        const std::size_t i = add(d, top);
        if (reward.size() == std::size_t(kRewardTerms))
            setReward(i, reward.data());
        return i;
    }
    /// Records decision i's kRewardTerms reward terms (a reward observer; a second call replaces them).
    void setReward(std::size_t i, const float* terms)
    {
        Decision& d = m_decisions[i];
        if (d.reward < 0) {
            d.reward = int32_t(m_rewards.size() / kRewardTerms);
            m_rewards.resize(m_rewards.size() + std::size_t(kRewardTerms));
        }
        std::copy(terms, terms + kRewardTerms, m_rewards.begin() + std::ptrdiff_t(d.reward) * kRewardTerms);
    }
    /// The decision's kRewardTerms reward terms, or nullptr.
    const float* rewardOf(const Decision& d) const { return d.reward < 0 ? nullptr : m_rewards.data() + std::size_t(d.reward) * kRewardTerms; }
    const std::vector<Decision>& decisions() const { return m_decisions; }
    const policy::Candidate* candidatesOf(const Decision& d) const { return m_candidates.data() + d.firstCandidate; }
    std::size_t size() const { return m_decisions.size(); }
    /// Sets every decision's statePos (a log read back from a project, with its stored journal).
    /// False when the sizes differ.
    bool setStatePositions(const std::vector<int64_t>& pos)
    {
        if (pos.size() != m_decisions.size())
            return false;
        for (std::size_t i = 0; i < pos.size(); ++i)
            m_decisions[i].statePos = pos[i];
        return true;
    }

private:
    std::vector<Decision> m_decisions;
    std::vector<policy::Candidate> m_candidates;
    std::vector<float> m_rewards;
};

} // namespace schedlab::sim
