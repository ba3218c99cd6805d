// The job table model: Qt's model tester, and values checked against the tiny openb trace.

#include "test_util.h"

#include "job_table_model.h"
#include "trace/trace_loader.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QtTest>

using namespace schedlab;

class TestJobTableModel : public QObject {
    Q_OBJECT
private slots:
    void modelTesterAndValues()
    {
        views::JobTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        auto loaded = trace::loadTrace({ test::dataPath("tiny/nodes.csv"), test::dataPath("tiny/pods.csv") });
        QVERIFY(loaded.ok());
        model.setTrace(std::make_shared<const trace::Trace>(loaded->trace));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(views::JobTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, views::JobTableModel::Name)).toString(), QString("p0"));
        QCOMPARE(model.data(model.index(0, views::JobTableModel::Run)).toString(), QString("95"));
        QCOMPARE(model.data(model.index(2, views::JobTableModel::Gpus)).toLongLong(), 2LL);
        QCOMPARE(model.data(model.index(2, views::JobTableModel::GpuMilli)).toLongLong(), 2000LL);
        QCOMPARE(model.data(model.index(3, views::JobTableModel::LoggedStart)).toString(), QString("—"));
        QCOMPARE(model.data(model.index(1, views::JobTableModel::Qos)).toString(), QString("BE"));
        QCOMPARE(model.headerData(views::JobTableModel::Submit, Qt::Horizontal).toString(), QString("Submit (s)"));

        // Sorting by the numeric role: CPU descending puts p2 (16000) first.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        proxy.sort(views::JobTableModel::Cpu, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, views::JobTableModel::Name)).toString(), QString("p2"));
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterFixedString("p3");
        QCOMPARE(proxy.rowCount(), 1);
    }
};

QTEST_GUILESS_MAIN(TestJobTableModel)
#include "test_job_table_model.moc"
