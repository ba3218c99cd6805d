#include "missing_trace_notice.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace schedlab::views {

QString listOfIds(const std::vector<int64_t>& ids, int shown)
{
    QStringList parts;
    for (std::size_t i = 0; i < ids.size() && int(i) < shown; ++i)
        parts << QString::number(ids[i]);
    if (ids.size() > std::size_t(shown))
        return parts.join(", ") + QObject::tr(" and %1 more").arg(ids.size() - std::size_t(shown));
    if (parts.size() < 2)
        return parts.join(QString());
    const QString last = parts.takeLast();
    return parts.join(", ") + QObject::tr(" and ") + last;
}

MissingTraceNotice::MissingTraceNotice(QWidget* parent)
    : QFrame(parent)
{
    setObjectName("missingTraceNotice");
    // A notice, not an error: the runs' stored results are still shown.
    setStyleSheet("#missingTraceNotice { background: #fff5d6; border: 1px solid #e2c15f; }"
                  "#missingTraceNotice QLabel { color: #4a3b00; }");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 6, 8, 6);
    m_text = new QLabel(this);
    m_text->setObjectName("missingTraceText");
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse); // the path can be copied
    row->addWidget(m_text, 1);
    auto* buttons = new QVBoxLayout;
    m_locate = new QPushButton(tr("Locate File…"), this);
    m_locate->setObjectName("locateTraceButton");
    m_import = new QPushButton(tr("Import into Project…"), this);
    m_import->setObjectName("importTraceButton");
    buttons->addWidget(m_locate);
    buttons->addWidget(m_import);
    buttons->addStretch(1);
    row->addLayout(buttons);
    connect(m_locate, &QPushButton::clicked, this, [this] { emit locateRequested(m_traceId, false); });
    connect(m_import, &QPushButton::clicked, this, [this] { emit locateRequested(m_traceId, true); });
    setVisible(false);
}

void MissingTraceNotice::setMissing(const std::vector<workflow::MissingTrace>& traces, bool readOnly)
{
    setVisible(!traces.empty());
    if (traces.empty()) {
        m_traceId = -1;
        m_text->clear();
        return;
    }
    const workflow::MissingTrace& m = traces.front();
    m_traceId = m.traceId;
    QStringList missing;
    for (const std::string& f : m.missing)
        missing << QString::fromStdString(f);
    QString who;
    if (!m.runs.empty())
        who = (m.runs.size() == 1 ? tr("run %1") : tr("runs %1")).arg(listOfIds(m.runs));
    if (!m.rounds.empty())
        who += (who.isEmpty() ? QString() : tr(" and "))
            + (m.rounds.size() == 1 ? tr("round %1") : tr("rounds %1")).arg(listOfIds(m.rounds));
    QString text
        = tr("<b>The trace of %1 could not be reopened:</b> %2 %3 no longer there.")
              .arg(who.toHtmlEscaped(), missing.join(", ").toHtmlEscaped(), missing.size() == 1 ? tr("is") : tr("are"));
    text += QStringLiteral("<br>")
        + tr("Their stored results are shown; incident replay, forks and new runs on this trace need the file.");
    text += QStringLiteral(" ")
        + (readOnly ? tr("The project is read-only: a file you locate is used in this session only (Save Project As… "
                         "to keep its place).")
                    : tr("Locate it where it is now (the project remembers the place), or import it into the project "
                         "so the runs no "
                         "longer depend on it (schedlab-cli import does the same)."));
    if (traces.size() > 1)
        text += QStringLiteral(" ") + tr("%1 more traces of this project are missing too.").arg(traces.size() - 1);
    m_text->setText(text);
    m_import->setEnabled(!readOnly);
    m_import->setToolTip(readOnly ? tr("The project is read-only")
                                  : tr("Pick the file, then keep a copy of the trace inside the project"));
    m_locate->setToolTip(tr("Pick the file where it is now; other files of the trace are looked for beside it"));
}

QString MissingTraceNotice::text() const
{
    return m_text->text();
}

} // namespace schedlab::views
