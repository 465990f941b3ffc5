/** Who sent a request (Kubernetes' user.Info): set by authentication, read by every layer after it. */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}
