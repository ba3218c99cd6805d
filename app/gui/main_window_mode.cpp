// MainWindow: which mode "auto" runs and why (status bar, one-click switch), the explicit mode
// remembered per trace, and the trace-overview strip whose window timed replays use.
#include "main_window.h"

#include "dashboard_widget.h"
#include "trace_overview_widget.h"

#include "trace/load_profile.h"
#include "workflow/run_args.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace schedlab::app {

namespace {

constexpr int kAuto = 0, kTimed = 1, kFill = 2; // the Mode box's items

} // namespace

void MainWindow::buildModeStatus()
{
    m_modeNote = new QLabel(this);
    m_modeNote->setObjectName("modeNote");
    m_modeSwitch = new QPushButton(this);
    m_modeSwitch->setObjectName("modeSwitch");
    m_modeSwitch->setFlat(true);
    m_modeSwitch->setStyleSheet("QPushButton { color: palette(link); text-decoration: underline; padding: 0 4px; }");
    m_modeSwitch->setVisible(false);
    connect(m_modeSwitch, &QPushButton::clicked, this, [this] {
        // The other mode, chosen explicitly (and so remembered for this trace).
        m_mode->setCurrentIndex(fillModeChosen() ? kTimed : kFill);
        rememberMode();
    });
    // Only a choice the user made is remembered: activated() is not emitted by setCurrentIndex().
    connect(m_mode, &QComboBox::activated, this, [this] { rememberMode(); });
    statusBar()->addPermanentWidget(m_modeNote);
    statusBar()->addPermanentWidget(m_modeSwitch);
}

QString MainWindow::traceModeKey() const
{
    // The trace's files (absolute, in order) name it; a hash keeps the settings key short.
    QStringList files;
    for (const std::string& p : m_tracePaths)
        files << QFileInfo(QString::fromStdString(p)).absoluteFilePath();
    const QByteArray id = QCryptographicHash::hash(files.join('\n').toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QStringLiteral("traceMode/") + QString::fromLatin1(id);
}

void MainWindow::rememberMode()
{
    if (m_tracePaths.empty())
        return;
    QSettings settings;
    if (m_mode->currentIndex() == kAuto)
        settings.remove(traceModeKey());
    else
        settings.setValue(traceModeKey(), m_mode->currentIndex() == kFill ? "fill" : "timed");
    updateModeControls();
}

void MainWindow::applyTraceProfile()
{
    const trace::LoadProfile profile = trace::loadProfile(*m_trace);
    const workflow::ModeChoice choice = workflow::chooseMode(profile);
    m_autoFill = choice.mode == sim::RunMode::Fill;
    m_autoReason = QString::fromStdString(choice.reason);
    const std::optional<double> epoch = trace::epochOf(*m_trace);
    m_overview->setProfile(profile, workflow::defaultReplayWindow(profile), epoch);
    m_overview->setVisible(!profile.empty());
    m_dashboard->setTimeOrigin(profile.empty() ? std::nullopt : std::optional<double>(profile.startS), epoch);
    // The mode the user chose for this trace before, else auto.
    const QString remembered = QSettings().value(traceModeKey()).toString();
    const QSignalBlocker block(m_mode);
    m_mode->setCurrentIndex(remembered == "fill" ? kFill : remembered == "timed" ? kTimed : kAuto);
}

void MainWindow::updateModeStatus()
{
    const bool fill = fillModeChosen();
    m_overview->setFillMode(fill);
    if (!m_trace) {
        m_modeNote->clear();
        m_modeSwitch->setVisible(false);
        return;
    }
    const QString what = fill ? tr("fill experiment") : tr("timed replay");
    if (m_mode->currentIndex() == kAuto)
        m_modeNote->setText(tr("auto: %1").arg(m_autoReason));
    else
        m_modeNote->setText(tr("%1, chosen for this trace").arg(what));
    m_modeNote->setToolTip(m_autoReason);
    // A fill experiment measures GPU allocation: no switch to it on a trace without GPUs.
    const bool canFill = m_trace->totalGpus() > 0;
    m_modeSwitch->setVisible(fill || canFill);
    m_modeSwitch->setText(fill ? tr("Switch to timed replay") : tr("Switch to fill experiment"));
}

std::optional<trace::TimeSpan> MainWindow::replayWindow() const { return m_overview->window(); }

} // namespace schedlab::app
