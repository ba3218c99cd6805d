#pragma once
/// A scorer computed in C++ from each feature row (no torch): the rl tests' scripted networks.

#include "rl/scorer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedlab::test {

class FnScorer final : public rl::Scorer {
public:
    explicit FnScorer(std::function<float(const float*)> f)
        : m_f(std::move(f))
    {
    }
    Status score(const float* rows, int n, int features, std::vector<float>& out) override
    {
        out.resize(std::size_t(n));
        for (int i = 0; i < n; ++i)
            out[std::size_t(i)] = m_f(rows + std::ptrdiff_t(i) * features);
        return {};
    }
    std::string describe() const override { return "fn"; }
    Result<std::unique_ptr<rl::Scorer>> clone() const override { return std::unique_ptr<rl::Scorer>(new FnScorer(m_f)); }

private:
    std::function<float(const float*)> m_f;
};

} // namespace schedlab::test
