#include "mode_status.h"

#include "run_options_widget.h"

#include "sim/run_spec.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace schedlab::app {

using ModeChoice = views::RunOptionsWidget::ModeChoice;

ModeStatus::ModeStatus(views::RunOptionsWidget* options, QStatusBar* bar, QObject* parent)
    : QObject(parent)
    , m_options(options)
{
    m_note = new QLabel(bar);
    m_note->setObjectName("modeNote");
    m_switch = new QPushButton(bar);
    m_switch->setObjectName("modeSwitch");
    m_switch->setFlat(true);
    m_switch->setStyleSheet("QPushButton { color: palette(link); text-decoration: underline; padding: 0 4px; }");
    m_switch->setVisible(false);
    connect(m_switch, &QPushButton::clicked, this, [this] {
        // The other mode, chosen explicitly (and so remembered for this trace).
        m_options->setModeChoice(m_options->fillChosen() ? ModeChoice::Timed : ModeChoice::Fill);
        rememberMode();
    });
    connect(m_options, &views::RunOptionsWidget::modeChosen, this, &ModeStatus::rememberMode);
    connect(m_options, &views::RunOptionsWidget::modeChanged, this, &ModeStatus::update);
    bar->addPermanentWidget(m_note);
    bar->addPermanentWidget(m_switch);
}

void ModeStatus::setTrace(std::shared_ptr<const trace::Trace> trace, const std::vector<std::string>& paths, bool autoFill, const QString& reason)
{
    m_trace = std::move(trace);
    m_paths = paths;
    m_reason = reason;
    // The mode the user chose for this trace before, else auto.
    sim::RunMode remembered;
    if (sim::parseRunMode(QSettings().value(traceModeKey()).toString().toStdString(), remembered))
        m_options->setModeChoice(remembered == sim::RunMode::Fill ? ModeChoice::Fill : ModeChoice::Timed);
    else
        m_options->setModeChoice(ModeChoice::Auto);
    m_options->setAutoFill(autoFill);
}

QString ModeStatus::traceModeKey() const
{
    // The trace's files (absolute, in order) name it; a hash keeps the settings key short.
    QStringList files;
    for (const std::string& p : m_paths)
        files << QFileInfo(QString::fromStdString(p)).absoluteFilePath();
    const QByteArray id = QCryptographicHash::hash(files.join('\n').toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QStringLiteral("traceMode/") + QString::fromLatin1(id);
}

void ModeStatus::rememberMode()
{
    if (m_paths.empty())
        return;
    QSettings settings;
    if (m_options->modeChoice() == ModeChoice::Auto)
        settings.remove(traceModeKey());
    else
        settings.setValue(traceModeKey(), sim::runModeName(m_options->modeChoice() == ModeChoice::Fill ? sim::RunMode::Fill : sim::RunMode::Timed));
    update();
}

void ModeStatus::update()
{
    const bool fill = m_options->fillChosen();
    emit fillModeChanged(fill);
    if (!m_trace) {
        m_note->clear();
        m_switch->setVisible(false);
        return;
    }
    const QString what = fill ? tr("fill experiment") : tr("timed replay");
    if (m_options->modeChoice() == ModeChoice::Auto)
        m_note->setText(tr("auto: %1").arg(m_reason));
    else
        m_note->setText(tr("%1, chosen for this trace").arg(what));
    m_note->setToolTip(m_reason);
    // A fill experiment measures GPU allocation: no switch to it on a trace without GPUs.
    const bool canFill = m_trace->totalGpus() > 0;
    m_switch->setVisible(fill || canFill);
    m_switch->setText(fill ? tr("Switch to timed replay") : tr("Switch to fill experiment"));
}

} // namespace schedlab::app
