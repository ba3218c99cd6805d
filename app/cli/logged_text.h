#pragma once
// The source scheduler's logged decision for an inspected task (incident::LoggedView), as
// `schedlab-cli decisions --index K` prints it, in text and JSON.

#include "incident/logged_view.h"

#include <QJsonObject>

namespace schedlab::cli {

/// "  logged by kube-scheduler log at t = 12.5: placed on node 3 (9 evaluated, 2 feasible)" and
/// its candidates, best first, with their per-plugin scores (at most `maxCandidates`).
void printLoggedView(const incident::LoggedView& v, const trace::Trace& trace, std::size_t maxCandidates = 8);
QJsonObject loggedViewJson(const incident::LoggedView& v);
/// The agreement summary of compareWithLogged().
void printAgreement(const incident::LoggedAgreement& a);
QJsonObject agreementJson(const incident::LoggedAgreement& a);

} // namespace schedlab::cli
