// `autoscale ... --project P`: each run stored in the project (store::AutoscaleRunRecord), and
// `autoscale --project P` with no load: the stored runs listed.

#include "cmd_autoscale.h"
#include "commands.h"

#include "store/project.h"
#include "workflow/autoscale_record.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace schedlab::cli {

using namespace schedlab::autoscale;

int listAutoscaleRuns(const std::string& projectPath, bool json)
{
    auto p = store::Project::open(projectPath, store::Project::OpenMode::ReadOnly);
    if (!p)
        return fail("autoscale: " + p.error().toString());
    auto runs = (*p)->autoscaleRuns();
    if (!runs)
        return fail("autoscale: " + runs.error().toString());
    if (json) {
        QJsonArray list;
        for (const store::AutoscaleRunRecord& r : *runs) {
            QJsonObject summary;
            for (const auto& [k, v] : r.summary)
                summary[QString::fromStdString(k)] = v;
            list.append(QJsonObject { { "id", double(r.id) }, { "load", QString::fromStdString(r.load) },
                { "service", QString::fromStdString(r.service) }, { "policy", QString::fromStdString(r.policy) }, { "fromS", r.fromS },
                { "durationS", r.durationS }, { "createdAt", QString::fromStdString(r.createdAt) }, { "summary", summary } });
        }
        std::printf("%s\n", QJsonDocument(QJsonObject { { "schema", "schedlab.autoscale-runs/1" }, { "runs", list } })
                                .toJson(QJsonDocument::Indented)
                                .constData());
        return 0;
    }
    std::printf("%zu autoscaling runs in %s\n%5s %-28s %12s %8s %8s %-20s %s\n", runs->size(), projectPath.c_str(), "id", "policy", "replica-h",
        "SLO min", "actions", "created", "load [from, window] / service");
    for (const store::AutoscaleRunRecord& r : *runs)
        std::printf("%5lld %-28s %12.1f %8.0f %8.0f %-20s %s [%.0f s, %.0f s] / %s\n", (long long)r.id, r.policy.c_str(),
            r.value("replicaHours"), r.value("sloViolationMinutes"), r.value("scalingActions"), r.createdAt.c_str(), r.load.c_str(), r.fromS,
            r.durationS, r.service.c_str());
    return 0;
}

} // namespace schedlab::cli
