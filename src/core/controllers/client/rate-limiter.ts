// client-go's default client-side rate limit (flowcontrol.NewTokenBucketRateLimiter):
// every request a client sends first takes a token from a bucket that holds
// `burst` tokens and refills at `qps` a second. kube-controller-manager's
// clients default to 20 QPS with a burst of 30 (--kube-api-qps/-burst), kube-
// scheduler's and the kubelet's to 50 and 100. Without it, KubeTab's in-process
// controllers and kubelets could send as fast as the server answers and starve
// the requests of the cluster's users, which a real cluster's clients cannot.
// The bucket refills on the host's time: it protects the server's CPU, which
// the cluster's Clock does not measure.
//
// KubeTab limits only writes (ApiClient): client-go limits reads too, but an
// in-process informer's lists and watches at start-up are what every test and
// every start waits for, and the starvation this guards against comes from the
// storms of creates and status writes of a large rollout.

export interface RateLimit {
  readonly qps: number;
  readonly burst: number;
}

/** kube-controller-manager's --kube-api-qps / --kube-api-burst defaults. */
export const CONTROLLER_MANAGER_RATE: RateLimit = Object.freeze({ qps: 20, burst: 30 });
/** kube-scheduler's and the kubelet's client defaults (KubeSchedulerConfiguration clientConnection, KubeletConfiguration kubeAPIQPS/Burst). */
export const SCHEDULER_RATE: RateLimit = Object.freeze({ qps: 50, burst: 100 });
export const KUBELET_RATE: RateLimit = Object.freeze({ qps: 50, burst: 100 });

export class TokenBucket {
  private tokens: number;
  private last: number;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly limit: RateLimit,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tokens = limit.burst;
    this.last = this.now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.last) / 1000) * this.limit.qps);
    this.last = t;
  }

  /** Resolves when the caller may send (waiters are served in order). */
  wait(): Promise<void> {
    const turn = this.tail.then(async () => {
      this.refill();
      if (this.tokens < 1) {
        const ms = Math.ceil(((1 - this.tokens) / this.limit.qps) * 1000);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          (timer as { unref?: () => void }).unref?.();
        });
        this.refill();
      }
      this.tokens -= 1;
    });
    this.tail = turn;
    return turn;
  }
}
