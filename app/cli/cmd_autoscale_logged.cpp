// `schedlab-cli autoscale INSTANCE_LOG --app APP|all [--role R] --policy logged,hpa,...`: the
// replica counts an instance log recorded (the DLRM serving trace), replayed as `logged` next to
// the other policies on the demand those replicas were sized for (core/autoscale/instance_log.h).

#include "cmd_autoscale.h"
#include "commands.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

namespace schedlab::cli {

using namespace schedlab::autoscale;

std::string setUpInstanceLog(const Args& a, const std::string& path, AutoscaleSetup& s)
{
    auto log = readInstanceLog(path);
    if (!log)
        return log.error().toString();
    s.log = std::make_unique<InstanceLog>(std::move(log).value());
    int& role = s.role;
    if (auto r = a.value("role"); r && *r != "all") {
        role = s.log->roleIndex(*r);
        if (role < 0) {
            std::string known;
            for (const std::string& x : s.log->roles)
                known += (known.empty() ? "" : ", ") + x;
            return "autoscale: --role " + *r + ": the log has roles " + known + " (or all)";
        }
    }
    const std::string app = a.value("app").value_or("");
    s.allApps = app == "all";
    if (s.allApps)
        return {};
    const int index = s.log->appIndex(app);
    if (index < 0)
        return "autoscale: --app " + app + ": not in " + s.log->name + " (" + std::to_string(s.log->apps.size()) + " apps, e.g. "
            + s.log->apps.front() + "; or all)";
    s.record = replicaRecord(*s.log, index, role);
    s.load = demandOf(replicaRecord(*s.log, index, role, s.service.startupDelayS), s.service.capacityRps());
    return {};
}

int autoscaleAllApps(const Args& a, AutoscaleSetup& s, const std::vector<std::string>& specs)
{
    const int role = s.role;
    const InstanceLog& log = *s.log;
    struct AppRuns {
        ReplicaRecord record;
        std::vector<AutoscaleResult> runs;
        std::string error;
    };
    std::vector<AppRuns> apps(log.apps.size());
    std::atomic<std::size_t> next { 0 };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::max(1u, std::thread::hardware_concurrency()); ++j)
        pool.emplace_back([&] {
            for (std::size_t i; (i = next++) < apps.size();) {
                AutoscaleSetup one;
                one.service = s.service;
                one.options = s.options;
                one.record = replicaRecord(log, int(i), role);
                one.load = demandOf(replicaRecord(log, int(i), role, s.service.startupDelayS), s.service.capacityRps());
                for (const std::string& spec : specs) {
                    auto policy = autoscalePolicy(spec, one);
                    auto r = autoscale::runAutoscale(one.load, one.service, *policy, one.options);
                    if (!r) {
                        apps[i].error = spec + ": " + r.error().toString();
                        break;
                    }
                    std::vector<MinutePoint>().swap(r->series); // the table needs the totals only
                    apps[i].runs.push_back(std::move(r).value());
                }
                apps[i].record = std::move(one.record);
            }
        });
    for (std::thread& t : pool)
        t.join();
    for (const AppRuns& r : apps)
        if (!r.error.empty())
            return fail("autoscale: " + r.record.app + ": " + r.error);

    long long instances = 0;
    for (const AppRuns& r : apps)
        instances += r.record.instances;
    std::vector<double> hours(specs.size(), 0.0);
    std::vector<long long> slo(specs.size(), 0), actions(specs.size(), 0);
    for (const AppRuns& r : apps)
        for (std::size_t k = 0; k < specs.size(); ++k) {
            hours[k] += r.runs[k].replicaHours;
            slo[k] += r.runs[k].sloViolationMinutes;
            actions[k] += r.runs[k].scalingActions;
        }
    if (a.flag("json")) {
        QJsonArray list, totals;
        for (const AppRuns& r : apps) {
            QJsonArray runs;
            for (const AutoscaleResult& x : r.runs)
                runs.append(autoscaleJson(x, false));
            list.append(QJsonObject { { "app", QString::fromStdString(r.record.app) }, { "instances", r.record.instances },
                { "loggedReplicaHours", r.record.replicaHours() }, { "runs", runs } });
        }
        for (std::size_t k = 0; k < specs.size(); ++k)
            totals.append(QJsonObject { { "policy", QString::fromStdString(specs[k]) }, { "replicaHours", hours[k] },
                { "sloViolationMinutes", double(slo[k]) }, { "scalingActions", double(actions[k]) } });
        std::printf("%s\n", QJsonDocument(QJsonObject { { "schema", "schedlab.autoscale-apps/1" }, { "log", QString::fromStdString(log.name) },
                                              { "role", role >= 0 ? QString::fromStdString(log.roles[std::size_t(role)]) : QString("all") },
                                              { "apps", list }, { "totals", totals } })
                                .toJson(QJsonDocument::Indented)
                                .constData());
        return 0;
    }
    std::printf("%s: %zu apps, %zu instances, %.0f s; each app's load is the demand of its logged replicas at %.2f req/s "
                "per replica (service %.0f ms at %.0f %%), SLO p99 %.0f ms\n%-14s %9s",
        log.name.c_str(), log.apps.size(), log.instances.size(), log.endS, s.service.capacityRps(), s.service.serviceTimeS * 1000,
        s.service.targetUtilization * 100, s.service.sloP99S * 1000, "app", "instances");
    for (const std::string& spec : specs)
        std::printf(" %12s %8s %8s", (spec + " rep-h").substr(0, 12).c_str(), "SLO min", "actions");
    std::printf("\n");
    for (const AppRuns& r : apps) {
        std::printf("%-14s %9d", r.record.app.c_str(), r.record.instances);
        for (const AutoscaleResult& x : r.runs)
            std::printf(" %12.1f %8d %8d", x.replicaHours, x.sloViolationMinutes, x.scalingActions);
        std::printf("\n");
    }
    std::printf("%-14s %9lld", "total", instances);
    for (std::size_t k = 0; k < specs.size(); ++k)
        std::printf(" %12.1f %8lld %8lld", hours[k], slo[k], actions[k]);
    std::printf("\n");
    return 0;
}

} // namespace schedlab::cli
