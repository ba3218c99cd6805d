#include "trace_summary_view.h"

#include <QHeaderView>

namespace schedlab::views {

TraceSummaryView::TraceSummaryView(QWidget* parent)
    : QTreeWidget(parent)
{
    setObjectName("traceSummary");
    setColumnCount(2);
    setHeaderHidden(true);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setToolTip(tr("The trace as schedlab-cli info reports it; expand a row for its details"));
}

void TraceSummaryView::setSummaryText(const QString& text)
{
    m_text = text;
    clear();
    QTreeWidgetItem* last = nullptr;
    for (const QString& raw : text.split('\n', Qt::SkipEmptyParts)) {
        const bool detail = raw.startsWith(' ') && last;
        const QString line = raw.trimmed();
        const qsizetype colon = line.indexOf(QStringLiteral(": "));
        // "file: x [swf, 12 bytes]" -> ("file", "x [...]"); lines without a key keep the whole text.
        const QString key = colon > 0 && colon < 40 ? line.left(colon) : QString();
        const QString value = colon > 0 && colon < 40 ? line.mid(colon + 2) : line;
        auto* item = detail ? new QTreeWidgetItem(last) : new QTreeWidgetItem(this);
        item->setText(0, key);
        item->setText(1, value);
        item->setToolTip(1, value);
        if (!detail)
            last = item;
    }
}

} // namespace schedlab::views
