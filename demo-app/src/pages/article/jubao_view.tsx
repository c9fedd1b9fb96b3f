import { useQuery } from '@tanstack/react-query';
import { ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { QueryView } from '../../features/api/QueryView';
import { REPORTS_QUERY, reportPage, reportView, type Report, type ReportStatus } from '../../features/content/reports';
import { NavBar } from '../../ui/NavBar';

const STATUS_COLOR: Record<ReportStatus, 'warning' | 'success' | 'default'> = {
  pending: 'warning',
  upheld: 'success',
  dismissed: 'default',
};

/** Where a report stands, as a tag. */
function StatusTag({ status }: { status: ReportStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLOR[status]}>{t(`report.status_${status}`)}</Tag>;
}

/**
 * One report: what was reported (an article, opening it while it stands, or a circle post) and why, when, and the
 * decision with its reason.
 */
function ReportDetail({ report }: { report: Report }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const at = (time: number) => new Date(time).toLocaleString(i18n.language);
  const opens = report.type === 'article' && report.status !== 'upheld';
  return (
    <List>
      <List.Item
        title={t('report.reported')}
        description={t(`report.kind_${report.type}`)}
        onClick={opens ? () => open(`article/view?id=${encodeURIComponent(report.target_id)}`) : undefined}
      >
        {report.title}
      </List.Item>
      <List.Item title={t('report.said')}>
        <span className="article-comment">{report.content}</span>
      </List.Item>
      <List.Item title={t('report.sentAt')}>{at(report.created_at)}</List.Item>
      <List.Item title={t('report.decision')} extra={<StatusTag status={report.status} />}>
        {report.status === 'pending' ? t('report.underReview') : report.reason}
      </List.Item>
      {report.reviewed_at !== null && <List.Item title={t('report.decidedAt')}>{at(report.reviewed_at)}</List.Item>}
    </List>
  );
}

/**
 * Reports (spec §2 article/jubao_view): with `id`, one of the member's reports and the decision on it; without, the
 * member's reports, newest first, each opening its detail.
 */
export default function Reports() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const context = { token: user?.token, locale: i18n.language };
  const detail = useQuery({
    queryKey: [REPORTS_QUERY, user?.id, 'view', id],
    queryFn: () => reportView(id, context),
    enabled: user !== null && id !== '',
    retry: false,
  });
  const list = usePagedList(
    [REPORTS_QUERY, user?.id, 'mine'],
    (before) => reportPage(before, context),
    user !== null && id === '',
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={id ? t('report.detailTitle') : t('report.mine')} />
      {id ? (
        <QueryView query={detail}>{(report) => <ReportDetail report={report} />}</QueryView>
      ) : (
        <PagedList list={list} empty={<ErrorBlock status="empty" title={t('report.none')} description="" />}>
          {(items) => (
            <List>
              {items.map((report) => (
                <List.Item
                  key={report.id}
                  data-testid="report"
                  description={new Date(report.created_at).toLocaleString(i18n.language)}
                  extra={<StatusTag status={report.status} />}
                  onClick={() => open(`article/jubao_view?id=${encodeURIComponent(report.id)}`)}
                >
                  {report.title}
                </List.Item>
              ))}
            </List>
          )}
        </PagedList>
      )}
    </div>
  );
}
