import type {
  AddMembersRequest,
  CreateTopicRequest,
  ReadState,
  Topic,
  TopicMember,
  TopicMemberPage,
  TopicNotificationLevel,
  TopicPage,
  UpdateTopicRequest,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** `/api/topics`: topics, their members, following and the read marker. */
export function topicsApi(client: ApiClient) {
  return {
    /**
     * The topics the caller sees, newest activity first; `archived: 'true'`: the archived ones,
     * newest archived first; `q`: characters of the title.
     */
    list: (query: {
      scope?: 'all' | 'mine';
      archived?: 'true';
      q?: string;
      cursor?: string;
      limit?: number;
    }) => client.get<TopicPage>('/topics', query),
    /** One topic as the caller sees it. */
    get: (topicId: string) => client.get<Topic>(`/topics/${encodeURIComponent(topicId)}`),
    /** Creates a topic; the caller becomes its owner. */
    create: (body: CreateTopicRequest) => client.post<Topic>('/topics', body),
    /** Changes the fields sent. */
    update: (topicId: string, body: UpdateTopicRequest) =>
      client.patch<Topic>(`/topics/${encodeURIComponent(topicId)}`, body),
    /** Archives (read-only) or unarchives a topic. */
    archive: (topicId: string, archived: boolean) =>
      client.post<Topic>(`/topics/${encodeURIComponent(topicId)}/${archived ? 'archive' : 'unarchive'}`),
    /** Follows or stops following an organisation-wide topic. */
    follow: (topicId: string, following: boolean) =>
      client.request<Topic>('put', `/topics/${encodeURIComponent(topicId)}/follow`, { body: { following } }),
    /** How much of the topic notifies the caller: all new posts, mentions only, or muted. */
    setNotificationLevel: (topicId: string, level: TopicNotificationLevel) =>
      client.request<Topic>('put', `/topics/${encodeURIComponent(topicId)}/notifications`, {
        body: { level },
      }),
    /** Moves the caller's last-read marker forward (it never moves back). */
    markRead: (topicId: string, lastReadNumber: number) =>
      client.request<ReadState>('put', `/topics/${encodeURIComponent(topicId)}/read`, {
        body: { lastReadNumber },
      }),
    /** Members, owners first. */
    members: (topicId: string, cursor?: string) =>
      client.get<TopicMemberPage>(`/topics/${encodeURIComponent(topicId)}/members`, { cursor, limit: 100 }),
    /** Adds people. */
    addMembers: (topicId: string, body: AddMembersRequest) =>
      client.post<{ added: TopicMember[] }>(`/topics/${encodeURIComponent(topicId)}/members`, body),
    /** Removes a member (or the caller leaves). */
    removeMember: (topicId: string, userId: string) =>
      client.delete<{ removed: string }>(
        `/topics/${encodeURIComponent(topicId)}/members/${encodeURIComponent(userId)}`,
      ),
  };
}
