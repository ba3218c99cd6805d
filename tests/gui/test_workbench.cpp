// The workbench driven through its real widgets (offscreen): open the sample, run three policies,
// check the plots, linked zoom, the tracker readout, and the exports.

#include "test_util.h"

#include "comparison_widget.h"
#include "dashboard_widget.h"
#include "main_window.h"

#include <qcustomplot.h>

#include <QImage>
#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QtTest>

using namespace schedlab;

class TestWorkbench : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("schedlab-tests"); // keep the user's settings out of it
    }

    void runThreePoliciesOnTheSample()
    {
        app::MainWindow w;
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.openTrace({ SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "firstfit", "bestfit", "fgd" });
        QVERIFY(done.wait(120000));
        QVERIFY2(w.bannerText().isEmpty(), qPrintable(w.bannerText()));
        QCOMPARE(w.results().size(), std::size_t(3));

        views::DashboardWidget* d = w.dashboard();
        QCOMPARE(d->plotCount(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(d->plot(i)->graphCount(), 3);
            for (int g = 0; g < 3; ++g)
                QVERIFY2(d->plot(i)->graph(g)->dataCount() > 10, qPrintable(QString("plot %1 graph %2").arg(i).arg(g)));
        }
        // the same policy has the same colour in every plot
        QCOMPARE(d->plot(0)->graph(2)->pen().color(), d->plot(2)->graph(2)->pen().color());
        QVERIFY(d->plot(0)->graph(0)->pen().color() != d->plot(0)->graph(1)->pen().color());

        // zoom one plot: the others follow
        d->plot(1)->xAxis->setRange(2.0, 6.0);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(d->plot(i)->xAxis->range().lower, 2.0);
            QCOMPARE(d->plot(i)->xAxis->range().upper, 6.0);
        }
        // move the cursor: the readout names every run and the time
        d->setCursorX(4.0);
        const QString readout = d->readout();
        QVERIFY2(readout.contains("t = 4.00 h"), qPrintable(readout));
        for (const char* name : { "firstfit #42", "bestfit #42", "fgd #42" })
            QVERIFY2(readout.contains(name), qPrintable(readout));
        // the readout's utilization value is the series value at that time
        const QCPGraph* util = d->plot(2)->graph(0);
        auto it = util->data()->findBegin(4.0, false);
        QVERIFY(readout.contains(QString::number(it->value, 'g', 4)));

        // comparison tab: a bar chart per metric plus the CDF, and the summary table
        views::ComparisonWidget* cmp = w.comparison();
        QCOMPARE(cmp->metricNames().size(), 6);
        QCOMPARE(cmp->chartCount(), 7);
        QCOMPARE(cmp->table()->rowCount(), 3);
        QCOMPARE(cmp->table()->item(2, 0)->text(), QString("fgd #42"));
        const double p99 = w.results()[0].timed->waitS.p99;
        QCOMPARE(cmp->table()->item(0, 2)->text().toDouble(), p99); // "wait p99 (s)" column
        const QString summary = m_dir.filePath("summary.csv");
        QVERIFY(cmp->exportSummaryCsv(summary));
        QFile s(summary);
        QVERIFY(s.open(QIODevice::ReadOnly | QIODevice::Text));
        QCOMPARE(QString::fromUtf8(s.readAll()).count('\n'), 4); // header + 3 runs

        // exports
        const QString png = m_dir.filePath("dash.png"), pdf = m_dir.filePath("dash.pdf"), csv = m_dir.filePath("v.csv");
        QVERIFY(d->exportPng(png));
        QVERIFY(d->exportPdf(pdf));
        QVERIFY(d->exportVisibleCsv(csv));
        QImage img(png);
        QCOMPARE(img.size(), d->size());
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(pdfFile.size() > 5000);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString("plot,series,x,y"));
        QVERIFY(lines.size() > 10);
        for (int i = 1; i < lines.size(); ++i) {
            const double x = lines[i].section(',', -2, -2).toDouble();
            QVERIFY2(x >= 2.0 && x <= 6.0, qPrintable(lines[i])); // only the visible range
        }
    }

    void badTraceShowsTheBanner()
    {
        app::MainWindow w;
        const std::string bad = test::writeFile(m_dir, "broken.csv", "name,cpu_milli\n");
        QVERIFY(!w.openTrace({ bad }));
        QVERIFY2(w.bannerText().contains("broken.csv"), qPrintable(w.bannerText()));
    }

    void cancelStopsTheBatch()
    {
        app::MainWindow w;
        w.show();
        QVERIFY(w.openTrace({ SCHEDLAB_SAMPLE }));
        QSignalSpy done(&w, &app::MainWindow::batchDone);
        w.runPolicies({ "fgd", "fgd", "fgd" });
        auto* cancel = w.findChild<QPushButton*>("cancelButton");
        QVERIFY(cancel && cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(done.wait(120000));
        QVERIFY(w.results().size() < 3);
        QVERIFY(w.bannerText().isEmpty()); // cancel is not an error
    }
};

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"
