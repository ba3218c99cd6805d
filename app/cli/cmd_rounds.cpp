// `schedlab-cli rounds`: the round lineage of a project, each round's evaluation, budgets and
// validation, and checkpoints no finished round names.

#include "command_table.h"
#include "cli_args.h"
#include "commands.h"

#include "rl/fine_tune.h"
#include "store/project.h"
#include "workflow/fine_tune_session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstdio>
#include <optional>

namespace schedlab::cli {

int runRounds(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("rounds")); !e.empty())
        return fail("rounds: " + e, 2);
    if (!a.value("project"))
        return fail("rounds: give --project P", 2);
    // A listing never writes (stale rounds are repaired by the next write).
    auto project = store::Project::open(*a.value("project"), store::Project::OpenMode::ReadOnly);
    if (!project)
        return fail(project.error().toString());
    auto rows = project.value()->rounds();
    if (!rows)
        return fail(rows.error().toString());
    QJsonArray arr;
    if (!a.flag("json"))
        std::printf("%5s %6s %-11s %-9s %-24s %4s %8s %10s  %s\n", "round", "parent", "status", "mode", "window", "ep", "lr",
            "learned", "checkpoint / error");
    for (const store::RoundRow& r : rows.value()) {
        auto eval = project.value()->roundEval(r.id);
        double learned = 0;
        int n = 0;
        QJsonObject evalJson;
        if (eval)
            for (const store::EvalValue& v : eval.value()) {
                if (v.policy == "learned" && (v.metric == "finalGpuAllocPct" || v.metric == "waitP99S" || v.metric == "replicaHours")) {
                    learned += v.value;
                    ++n;
                }
                QJsonObject m = evalJson[QString::fromStdString(v.policy)].toObject();
                m[QString::fromStdString(v.metric + "#" + std::to_string(v.seed))] = v.value;
                evalJson[QString::fromStdString(v.policy)] = m;
            }
        // A round whose evaluation ended over a budget is marked so.
        std::vector<std::string> over;
        if (auto k = project.value()->roundConstraints(r.id); k && eval)
            over = workflow::overBudget(k.value(), eval.value());
        QJsonArray overJson;
        for (const std::string& o : over)
            overJson.append(QString::fromStdString(o));
        // A round trained with validation seeds: each episode's validation and the kept one.
        QJsonArray validation;
        std::optional<store::KeptWeights> kept;
        auto curve = project.value()->roundCurve(r.id);
        if (curve && (kept = store::keptWeights(curve.value(), r.startValidation, r.kind == store::RoundKind::Timed)))
            for (const store::CurvePoint& c : curve.value())
                validation.append(c.validation);
        if (a.flag("json")) {
            QJsonObject row { { "round", double(r.id) }, { "parent", double(r.parentId) },
                { "status", QString::fromStdString(r.status) }, { "mode", store::roundKindName(r.kind) },
                { "window", QString::fromStdString(r.window) }, { "episodes", r.episodes }, { "learningRate", r.learningRate },
                { "weights", QString::fromStdString(r.weights) }, { "checkpoint", QString::fromStdString(r.checkpoint) },
                { "sha256", QString::fromStdString(r.checkpointSha256) }, { "error", QString::fromStdString(r.error) },
                { "eval", evalJson }, { "overBudget", overJson } };
            if (kept) {
                row["validation"] = validation;
                row["keptEpisode"] = kept->episode;
                if (r.startValidation >= 0)
                    row["startValidation"] = r.startValidation;
            }
            arr.append(row);
            continue;
        }
        std::printf("%5lld %6s %-11s %-9s %-24s %4d %8g %10s  %s\n", static_cast<long long>(r.id),
            r.parentId < 0 ? "-" : std::to_string(r.parentId).c_str(), r.status.c_str(), store::roundKindName(r.kind), r.window.substr(0, 24).c_str(),
            r.episodes, r.learningRate, n ? QString::number(learned / n, 'f', 2).toStdString().c_str() : "-",
            r.status == "finished" ? r.checkpoint.c_str() : r.error.c_str());
        for (const std::string& o : over)
            std::printf("%5s over budget: %s\n", "", o.c_str());
        const sim::RunMode mode = store::runModeOf(r.kind);
        if (kept && kept->episode == 0)
            std::printf("%5s kept its starting weights (validation %s; none of its %d episodes did better)\n", "",
                rl::validationText(mode, kept->validation).c_str(), int(curve->size()));
        else if (kept)
            std::printf("%5s kept episode %d of %d (validation %s)\n", "", kept->episode, int(curve->size()),
                rl::validationText(mode, kept->validation).c_str());
    }
    // Checkpoints of rounds killed between writing the file and committing the row.
    const std::vector<std::string> orphans = workflow::orphanCheckpoints(rows.value(), project.value()->path() + ".models");
    QJsonArray orphanJson;
    for (const std::string& f : orphans)
        orphanJson.append(QString::fromStdString(f));
    if (!a.flag("json") && !orphans.empty()) {
        std::printf("orphan checkpoints in %s.models (no finished round names them; safe to delete):\n",
            project.value()->path().c_str());
        for (const std::string& f : orphans)
            std::printf("  %s\n", f.c_str());
    }
    if (a.flag("json"))
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.rounds/1" }, { "rounds", arr }, { "orphans", orphanJson } })
                       .toJson(QJsonDocument::Indented)
                       .constData(),
            stdout);
    return 0;
}

} // namespace schedlab::cli
