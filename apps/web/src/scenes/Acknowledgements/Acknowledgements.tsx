import type { AnnouncementBranch, AnnouncementPeopleStatus } from '@btalk/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { announcementKeys } from '../../api/announcementKeys.ts';
import { ME_QUERY_KEY } from '../../api/me.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { SceneLoading } from '../../components/SceneLoading.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { useServices } from '../../services.tsx';
import { BranchList } from './components/BranchList.tsx';
import { DepartmentTable } from './components/DepartmentTable.tsx';
import { PeopleSection } from './components/PeopleSection.tsx';
import { PostSummary } from './components/PostSummary.tsx';
import { ReportActions } from './components/ReportActions.tsx';
import { ReportTotals } from './components/ReportTotals.tsx';

/**
 * Who has read an important post (`/topics/:topicId/posts/:postId/acknowledgements`): for its author,
 * the topic's owners and admins. The figures, departments, branches and people; live: the realtime
 * client patches the totals on `announcement.progress` and fetches the report and the list again
 * (once per burst) so an acknowledgement shows within a second.
 */
export default function Acknowledgements() {
  const { t } = useTranslation('announcements');
  const { topicId = '', postId = '' } = useParams();
  const { api } = useServices();
  const [department, setDepartment] = useState<string | undefined>();
  const [status, setStatus] = useState<AnnouncementPeopleStatus>('pending');
  const [branch, setBranch] = useState<AnnouncementBranch | undefined>();
  const me = useQuery({ queryKey: ME_QUERY_KEY, queryFn: () => api.me.get() });
  const topic = useQuery({
    queryKey: queryKeys.topics.detail(topicId),
    queryFn: () => api.topics.get(topicId),
    meta: { silent: true },
  });
  const post = useQuery({
    queryKey: queryKeys.posts.detail(postId),
    queryFn: () => api.posts.get(postId),
    meta: { silent: true },
  });
  const report = useQuery({
    queryKey: announcementKeys.report(postId, department),
    queryFn: () => api.announcements.report(postId, { department }),
    // Said inline below, with the way back to the post.
    meta: { silent: true },
    placeholderData: keepPreviousData,
  });
  const data = report.data;

  if (!data) {
    return (
      <ScenePage title={t('report.title')}>
        {report.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" component={Link} to={`/topics/${encodeURIComponent(topicId)}`}>
                {t('report.backToPost')}
              </Button>
            }
          >
            {t('report.failed')}
          </Alert>
        ) : (
          <SceneLoading />
        )}
      </ScenePage>
    );
  }
  const filters = {
    status,
    ...(department ? { department } : {}),
    ...(branch ? { branch: branch.id } : {}),
  };
  const fileName = `acknowledgements-${post.data ? post.data.number : postId}.csv`;
  return (
    <ScenePage title={t('report.title')}>
      <PostSummary report={data} post={post.data} topic={topic.data} myId={me.data?.id} />
      <ReportActions report={data} department={department} fileName={fileName} />
      <TextField
        select
        size="small"
        label={t('report.department')}
        value={department ?? ''}
        onChange={(e) => {
          setDepartment(e.target.value || undefined);
          // The branches are counted over the department: a chosen one may not be there.
          setBranch(undefined);
        }}
        sx={{ minWidth: 240, mb: 2 }}
      >
        <MenuItem value="">{t('report.allDepartments')}</MenuItem>
        {data.departments
          .filter((d) => d.name !== '')
          .map((d) => (
            <MenuItem key={d.name} value={d.name}>
              {t('report.departmentCount', { name: d.name, count: d.audience })}
            </MenuItem>
          ))}
      </TextField>
      <ReportTotals totals={data.totals} />
      <DepartmentTable departments={data.departments} />
      <BranchList branches={data.branches} selected={branch?.id} onSelect={setBranch} />
      <PeopleSection
        postId={postId}
        filters={filters}
        branchName={branch?.displayName}
        onStatus={setStatus}
        onClearBranch={() => setBranch(undefined)}
      />
    </ScenePage>
  );
}
