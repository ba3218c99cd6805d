#include "logged_text.h"

#include <QJsonArray>

#include <cstdio>

namespace schedlab::cli {

namespace {
const char* outcomeText(trace::LoggedOutcome o)
{
    switch (o) {
    case trace::LoggedOutcome::Placed: return "placed";
    case trace::LoggedOutcome::Unschedulable: return "unschedulable";
    case trace::LoggedOutcome::Waited: return "waited";
    }
    return "?";
}
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

void printLoggedView(const incident::LoggedView& v, const trace::Trace& trace, std::size_t maxCandidates)
{
    std::string head = "  logged";
    if (!v.source.empty())
        head += " by " + v.source;
    std::printf("%s at t = %.6g: %s", head.c_str(), v.timeS, outcomeText(v.outcome));
    if (v.outcome == trace::LoggedOutcome::Placed)
        std::printf(" on node %d%s", v.node,
            v.node >= 0 ? (" (" + trace.nodes[std::size_t(v.node)].name + ")").c_str() : " (a node the trace lacks)");
    if (v.evaluatedNodes >= 0)
        std::printf(", %d nodes evaluated, %d feasible", v.evaluatedNodes, v.feasibleNodes);
    if (v.count > 1)
        std::printf(", %d times", v.count);
    if (v.unschedulableBefore > 0)
        std::printf(", after %d unschedulable attempt(s)", v.unschedulableBefore);
    std::printf("\n");
    for (const auto& [reason, nodes] : v.reasons)
        std::printf("    unfit: %s%s\n", reason.c_str(), nodes >= 0 ? (" (" + std::to_string(nodes) + " nodes)").c_str() : "");
    if (v.candidates.empty())
        return;
    std::printf("    candidates as the scheduler scored them (best first%s):\n", v.tie ? "; the best score is shared: a tie" : "");
    for (std::size_t i = 0; i < v.candidates.size() && i < maxCandidates; ++i) {
        const incident::LoggedView::Candidate& c = v.candidates[i];
        std::string terms;
        for (const auto& [name, value] : c.terms) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.6g", value);
            terms += (terms.empty() ? "" : ", ") + name + " " + buf;
        }
        std::printf("    %s node %5d  score %10.6g%s%s%s\n", c.node == v.node && v.outcome == trace::LoggedOutcome::Placed ? "*" : " ",
            c.node, incident::loggedTotal(c), c.hasScore ? "" : " (sum of terms)", terms.empty() ? "" : "  = ", terms.c_str());
    }
    if (v.candidates.size() > maxCandidates)
        std::printf("    ... %zu more\n", v.candidates.size() - maxCandidates);
}

QJsonObject loggedViewJson(const incident::LoggedView& v)
{
    QJsonArray candidates, reasons;
    for (const incident::LoggedView::Candidate& c : v.candidates) {
        QJsonObject terms;
        for (const auto& [name, value] : c.terms)
            terms.insert(q(name), value);
        QJsonObject o { { "node", c.node }, { "score", incident::loggedTotal(c) }, { "scoreLogged", c.hasScore }, { "terms", terms } };
        candidates.append(o);
    }
    for (const auto& [reason, nodes] : v.reasons)
        reasons.append(QJsonObject { { "reason", q(reason) }, { "nodes", nodes } });
    return QJsonObject { { "source", q(v.source) }, { "time", v.timeS }, { "outcome", outcomeText(v.outcome) }, { "node", v.node },
        { "evaluatedNodes", v.evaluatedNodes }, { "feasibleNodes", v.feasibleNodes }, { "count", v.count },
        { "unschedulableBefore", v.unschedulableBefore }, { "tie", v.tie }, { "reasons", reasons }, { "candidates", candidates } };
}

void printAgreement(const incident::LoggedAgreement& a)
{
    if (a.agreed + a.disagreed == 0) // nothing to agree on: no percentage of nothing
        std::printf("%s against the logged decisions: agreement n/a: %lld placements with logged scores, %lld of them ties "
                    "(the log has no untied scored choice to compare)\n",
            a.policy.c_str(), static_cast<long long>(a.placed), static_cast<long long>(a.ties));
    else
        std::printf("%s against the logged decisions: %lld placements with logged scores; %lld ties (the scheduler drew among equal "
                    "scores); of the other %lld, %s picks the logged node in %lld (%.2f %%)\n",
            a.policy.c_str(), static_cast<long long>(a.placed), static_cast<long long>(a.ties),
            static_cast<long long>(a.agreed + a.disagreed), a.policy.c_str(), static_cast<long long>(a.agreed), a.agreementPct());
    if (a.scoresCompared == 0)
        std::printf("  scores: n/a (no logged candidate score)\n");
    else
        std::printf("  scores: %lld of %lld logged candidate scores equal %s's\n", static_cast<long long>(a.scoresEqual),
            static_cast<long long>(a.scoresCompared), a.policy.c_str());
    if (!a.firstDisagreement.empty())
        std::printf("  first disagreement: %s\n", a.firstDisagreement.c_str());
}

QJsonObject agreementJson(const incident::LoggedAgreement& a)
{
    return QJsonObject { { "policy", q(a.policy) }, { "placedWithScores", double(a.placed) }, { "ties", double(a.ties) },
        { "agreed", double(a.agreed) }, { "disagreed", double(a.disagreed) },
        { "agreementPct", a.agreed + a.disagreed ? QJsonValue(a.agreementPct()) : QJsonValue() }, // null: n/a
        { "scoresCompared", double(a.scoresCompared) }, { "scoresEqual", double(a.scoresEqual) },
        { "firstDisagreement", q(a.firstDisagreement) } };
}

} // namespace schedlab::cli
