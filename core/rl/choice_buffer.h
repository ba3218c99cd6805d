#pragma once
/// A teacher's decisions as ranking examples: per decision the candidates' feature rows with the
/// teacher's row first, then at most `maxCandidates - 1` others drawn at random (seeded). Filled
/// by the LearnedPolicy (ImitationSink), read by the ranking steps: the pre-training round
/// (imitation.h) and the teacher loss of DQN rounds (TrainOptions::teacherLoss).

#include "learned_policy.h"

#include "base/rng.h"

#include <cstddef>
#include <vector>

namespace schedlab::rl {

class ChoiceBuffer final : public ImitationSink {
public:
    ChoiceBuffer(uint64_t seed, int maxCandidates);
    void addChoice(const float* rows, int n, int chosen) override;
    std::size_t decisions() const { return m_size.size(); }
    /// Decision d's rows (size(d) of them, kFeatureCount floats each; the teacher's first).
    const float* rows(std::size_t d) const { return m_rows.data() + m_offset[d]; }
    int size(std::size_t d) const { return m_size[d]; }
    void clear();

private:
    void append(const float* row) { m_rows.insert(m_rows.end(), row, row + kFeatureCount); }
    Rng m_rng;
    int m_max;
    std::vector<float> m_rows;
    std::vector<std::size_t> m_offset;
    std::vector<int> m_size;
    std::vector<int> m_others; ///< scratch
};

} // namespace schedlab::rl
