#include "autoscale_controller.h"

#include "autoscale/learned_scaler.h"
#include "workflow/autoscale_record.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>
#include <QSettings>

namespace schedlab::app {

namespace {
/// A job's failure shown in the view (false), or true when it succeeded.
template <class T>
bool delivered(views::AutoscaleView* view, const Result<T>& out)
{
    view->setProgress(-1);
    if (out)
        return true;
    view->showError(out.error().isCancelled() ? AutoscaleController::tr("Cancelled.") : QString::fromStdString(out.error().toString()));
    return false;
}

struct Outcome {
    autoscale::LoadSeries load;
    autoscale::ServiceConfig service;
    std::vector<autoscale::AutoscaleResult> results;
};
} // namespace

Result<std::pair<autoscale::LoadSeries, autoscale::ServiceConfig>> readAutoscaleInputs(const QString& loadPath, const QString& servicePath)
{
    auto load = autoscale::readLoadSeries(loadPath.toStdString());
    if (!load)
        return load.error();
    autoscale::ServiceConfig service;
    if (!servicePath.isEmpty()) {
        auto s = autoscale::readServiceConfig(servicePath.toStdString());
        if (!s)
            return s.error();
        service = std::move(s).value();
    }
    return std::pair(std::move(load).value(), std::move(service));
}

AutoscaleController::AutoscaleController(views::AutoscaleView* view, QObject* parent)
    : QObject(parent)
    , m_view(view)
    , m_jobs(this)
    , m_decisionJobs(this)
{
    connect(view, &views::AutoscaleView::runRequested, this, &AutoscaleController::run);
    connect(view, &views::AutoscaleView::cancelRequested, this, [this] { m_jobs.cancel(); });
    connect(view, &views::AutoscaleView::forkRequested, this, &AutoscaleController::fork);
    connect(view, &views::AutoscaleView::decisionRequested, this, &AutoscaleController::decision);
    // The files of the last replay, when they are still there.
    QSettings settings;
    for (const auto& [key, set] : { std::pair<const char*, void (views::AutoscaleView::*)(const QString&)> { "autoscale/load", &views::AutoscaleView::setLoadPath },
             { "autoscale/service", &views::AutoscaleView::setServicePath }, { "autoscale/model", &views::AutoscaleView::setModelPath } }) {
        const QString path = settings.value(key).toString();
        if (!path.isEmpty() && QFileInfo::exists(path))
            (m_view->*set)(path);
    }
    // A file from a dialog that starts in the folder of the last one of its kind.
    auto ask = [this](const QString& title, const QString& dirKey, const QString& filter, void (views::AutoscaleView::*set)(const QString&)) {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(m_view, title, settings.value(dirKey).toString(), filter);
        if (path.isEmpty())
            return;
        settings.setValue(dirKey, QFileInfo(path).absolutePath());
        (m_view->*set)(path);
    };
    connect(view, &views::AutoscaleView::openLoadRequested, this, [ask] {
        ask(tr("Open Request Load"), "autoscale/loadDir", tr("Load files (*.txt *.tbz2 *.bz2 *.csv);;All files (*)"),
            &views::AutoscaleView::setLoadPath);
    });
    connect(view, &views::AutoscaleView::openModelRequested, this, [ask] {
        ask(tr("Open Learned Replica Policy"), "autoscale/modelDir", tr("Checkpoints (*.slq);;All files (*)"), &views::AutoscaleView::setModelPath);
    });
    connect(view, &views::AutoscaleView::openServiceRequested, this, [ask] {
        ask(tr("Open Service File"), "autoscale/serviceDir", tr("Service files (*.json);;All files (*)"), &views::AutoscaleView::setServicePath);
    });
}

bool AutoscaleController::run()
{
    const views::AutoscaleRequest r = m_view->request();
    QSettings settings; // the last load and service, for the next session
    settings.setValue("autoscale/load", r.loadPath);
    settings.setValue("autoscale/service", r.servicePath);
    for (const std::string& p : r.policies)
        if (p.rfind("learned:", 0) == 0)
            settings.setValue("autoscale/model", QString::fromStdString(p.substr(8)));
    if (r.loadPath.isEmpty()) {
        m_view->showError(tr("Open a load file first (Load…)."));
        return false;
    }
    if (r.policies.empty()) {
        m_view->showError(tr("Check at least one policy."));
        return false;
    }
    // Policies checked before any work.
    for (const std::string& p : r.policies) {
        std::string error;
        if (!autoscale::makeAnyReplicaPolicy(p, autoscale::ServiceConfig {}, &error)) {
            m_view->showError(QString::fromStdString(error));
            return false;
        }
    }
    m_jobs.reset();
    m_view->setProgress(0);
    m_last = r;
    QPointer<views::AutoscaleView> view(m_view);
    m_jobs.launch(
        [r](ProgressFn progress, CancelToken cancel) -> Result<Outcome> {
            Outcome out;
            auto inputs = readAutoscaleInputs(r.loadPath, r.servicePath);
            if (!inputs)
                return inputs.error();
            out.load = std::move(inputs->first);
            out.service = std::move(inputs->second);
            autoscale::AutoscaleOptions options;
            options.fromS = r.fromS;
            options.durationS = r.durationS;
            const double n = double(r.policies.size());
            for (std::size_t i = 0; i < r.policies.size(); ++i) {
                auto policy = autoscale::makeAnyReplicaPolicy(r.policies[i], out.service, nullptr);
                auto result = autoscale::runAutoscale(out.load, out.service, *policy, options,
                    [&](double f) {
                        if (progress)
                            progress((double(i) + f) / n);
                    },
                    cancel);
                if (!result)
                    return result.error();
                out.results.push_back(std::move(result).value());
            }
            return out;
        },
        [this, view](Result<Outcome> out) {
            if (!view)
                return;
            if (!delivered(view.data(), out)) {
                emit finished(false);
                return;
            }
            view->showResults(out->load, out->service, out->results);
            storeRuns(out->results);
            emit finished(true);
        },
        [view](double f) {
            if (view)
                view->setProgress(f);
        });
    return true;
}

void AutoscaleController::storeRuns(const std::vector<autoscale::AutoscaleResult>& results)
{
    m_storedIds.clear();
    store::Project* project = m_project ? m_project() : nullptr;
    if (!project || project->readOnly())
        return;
    autoscale::AutoscaleOptions window;
    window.fromS = m_last.fromS;
    window.durationS = m_last.durationS;
    for (const autoscale::AutoscaleResult& r : results) {
        auto id = project->addAutoscaleRun(workflow::autoscaleRecord(r, QFileInfo(m_last.loadPath).absoluteFilePath().toStdString(),
            m_last.servicePath.isEmpty() ? std::string() : QFileInfo(m_last.servicePath).absoluteFilePath().toStdString(), window));
        if (!id) {
            m_view->showError(tr("The runs were replayed but not stored in the project: %1").arg(QString::fromStdString(id.error().toString())));
            return;
        }
        m_storedIds.push_back(*id);
    }
}

std::string AutoscaleController::specOf(const std::string& runName) const
{
    // The run's own policy: the name up to a fork's " -> " (a fork of a fork starts from its
    // base); a learned policy is named by its file, asked for by its path.
    const std::string name = runName.substr(0, runName.find(" -> "));
    for (const std::string& p : m_last.policies)
        if (p == name || (p.rfind("learned:", 0) == 0 && "learned:" + p.substr(p.find_last_of('/') + 1) == name))
            return p;
    return name;
}

bool AutoscaleController::decision(int run, double atS)
{
    const auto& shown = m_view->results();
    if (run < 0 || std::size_t(run) >= shown.size())
        return false;
    const std::string base = specOf(shown[std::size_t(run)].policy);
    const views::AutoscaleRequest r = m_last;
    QPointer<views::AutoscaleView> view(m_view);
    m_decisionJobs.reset(); // the last incident chosen wins
    m_decisionJobs.launch(
        [r, base, atS](ProgressFn, CancelToken cancel) -> Result<autoscale::AutoscaleDecision> {
            auto inputs = readAutoscaleInputs(r.loadPath, r.servicePath);
            if (!inputs)
                return inputs.error();
            auto& [load, service] = inputs.value();
            std::string error;
            auto policy = autoscale::makeAnyReplicaPolicy(base, service, &error);
            if (!policy)
                return makeError(ErrorCode::Invalid, error);
            autoscale::AutoscaleOptions options;
            options.fromS = r.fromS;
            options.durationS = r.durationS;
            return autoscale::decisionAt(load, service, *policy, options, atS, cancel);
        },
        [this, view](Result<autoscale::AutoscaleDecision> out) {
            if (!view || !out)
                return;
            view->showDecision(*out);
            emit decisionShown();
        },
        [](double) {});
    return true;
}

bool AutoscaleController::fork(int run, double atS, const std::string& policy)
{
    const auto& shown = m_view->results();
    if (run < 0 || std::size_t(run) >= shown.size() || m_jobs.isRunning())
        return false;
    std::string error;
    if (!autoscale::makeAnyReplicaPolicy(policy, autoscale::ServiceConfig {}, &error)) {
        m_view->showError(QString::fromStdString(error));
        return false;
    }
    const std::string base = specOf(shown[std::size_t(run)].policy);
    const views::AutoscaleRequest r = m_last;
    m_view->setProgress(0);
    QPointer<views::AutoscaleView> view(m_view);
    m_jobs.launch(
        [r, base, policy, atS](ProgressFn progress, CancelToken cancel) -> Result<autoscale::AutoscaleResult> {
            auto inputs = readAutoscaleInputs(r.loadPath, r.servicePath);
            if (!inputs)
                return inputs.error();
            auto& [load, service] = inputs.value();
            auto original = autoscale::makeAnyReplicaPolicy(base, service, nullptr);
            auto other = autoscale::makeAnyReplicaPolicy(policy, service, nullptr);
            if (!original || !other)
                return makeError(ErrorCode::Invalid, "unknown policy");
            autoscale::AutoscaleOptions options;
            options.fromS = r.fromS;
            options.durationS = r.durationS;
            options.switchAtS = atS;
            options.switchTo = other.get();
            return autoscale::runAutoscale(load, service, *original, options, progress, cancel);
        },
        [this, view, atS](Result<autoscale::AutoscaleResult> out) {
            if (!view)
                return;
            if (!delivered(view.data(), out)) {
                emit finished(false);
                return;
            }
            view->addFork(*out, atS);
            emit finished(true);
        },
        [view](double f) {
            if (view)
                view->setProgress(f);
        });
    return true;
}

} // namespace schedlab::app
