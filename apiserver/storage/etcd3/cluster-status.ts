/**
 * What etcd says of itself, for the console's overview (/debug/cluster): its members (Cluster
 * MemberList) and, for each endpoint the server was given, that member's Maintenance Status (its
 * version, its db size and size in use, the leader it sees). A client of its own, made on the first
 * ask and kept: the store's client is left to the store, and a server nobody asks opens nothing.
 */
import { Etcd3 } from 'etcd3';

const DEADLINE_MS = 2000;

export interface EtcdMember {
  id: string;
  name: string;
  clientURLs: string[];
  leader: boolean;
  /** From that member's status, when it is one of the server's endpoints and answered. */
  dbSize?: number;
  dbSizeInUse?: number;
  version?: string;
}

export interface EtcdClusterStatus {
  backend: 'etcd3';
  endpoints: string[];
  members: EtcdMember[];
  /** The leader's name ('' while there is none, or none answered). */
  leader: string;
  /** Endpoints that did not answer, with why. */
  errors: { endpoint: string; message: string }[];
}

export interface EtcdStatusSource {
  status(): Promise<EtcdClusterStatus>;
  close(): void;
}

export function newEtcdStatusSource(endpoints: readonly string[]): EtcdStatusSource {
  let clients: Map<string, Etcd3> | undefined;
  const deadline = () => ({ deadline: Date.now() + DEADLINE_MS });
  const open = () => {
    clients ??= new Map(endpoints.map((e) => [e, new Etcd3({ hosts: [e], defaultCallOptions: deadline })]));
    return clients;
  };
  return {
    async status() {
      const errors: EtcdClusterStatus['errors'] = [];
      const answers = await Promise.all(
        [...open()].map(async ([endpoint, client]) => {
          try {
            const [members, status] = await Promise.all([client.cluster.memberList({}), client.maintenance.status()]);
            return { members: members.members, status, id: status.header.member_id };
          } catch (err) {
            errors.push({ endpoint, message: (err as Error).message });
            return undefined;
          }
        }),
      );
      const answered = answers.filter((a) => a !== undefined);
      const leaderId = answered.find((a) => a.status.leader !== '0')?.status.leader ?? '';
      const members = (answered[0]?.members ?? []).map((m): EtcdMember => {
        const own = answered.find((a) => a.id === m.ID)?.status;
        return {
          id: m.ID,
          name: m.name,
          clientURLs: m.clientURLs,
          leader: m.ID === leaderId,
          ...(own ? { dbSize: Number(own.dbSize), dbSizeInUse: Number(own.dbSizeInUse), version: own.version } : {}),
        };
      });
      return { backend: 'etcd3', endpoints: [...endpoints], members, leader: members.find((m) => m.leader)?.name ?? '', errors };
    },
    close() {
      for (const c of clients?.values() ?? []) c.close();
      clients = undefined;
    },
  };
}
