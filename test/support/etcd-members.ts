/** Facts about the members of a test cluster's etcd, read over etcd's JSON gateway. */
import type { Cluster, Member } from '../../scripts/cluster-topology.js';

interface MemberStatus {
  header: { member_id: string };
  leader: string;
}

async function status(member: Member): Promise<MemberStatus | undefined> {
  try {
    const res = await fetch(`${member.url}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) });
    return res.ok ? ((await res.json()) as MemberStatus) : undefined;
  } catch {
    return undefined;
  }
}

/** The member that leads the cluster now, as a running member reports it; throws when none knows one. */
export async function etcdLeader(cluster: Cluster): Promise<Member> {
  for (let i = 0; i < 50; i++) {
    const statuses = await Promise.all(cluster.etcd.map(async (m) => ({ m, s: m.child() ? await status(m) : undefined })));
    const leader = statuses.find(({ s }) => s && s.leader !== '0' && s.header.member_id === s.leader);
    if (leader) return leader.m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no etcd member reports itself the leader');
}

/** A member that is not the leader. */
export async function etcdFollower(cluster: Cluster): Promise<Member> {
  const leader = await etcdLeader(cluster);
  const follower = cluster.etcd.find((m) => m !== leader && m.child());
  if (!follower) throw new Error('no running follower');
  return follower;
}
