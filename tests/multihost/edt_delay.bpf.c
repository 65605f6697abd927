// tc egress program for scripts/multihost.sh where netem is missing: gives every packet an
// "earliest departure time" 2 ms from now (skb->tstamp, CLOCK_MONOTONIC). The fq qdisc holds each
// packet until then, so the link gets a 2 ms one-way delay (without fq the stamp does nothing).
// Built with clang -target bpf; loaded by `tc filter add dev mh0 egress bpf da obj edt_delay.o sec tc`.
// Written without libbpf's headers (helper called through its number) so that only the kernel
// headers are needed.
#include <linux/bpf.h>
#include <linux/pkt_cls.h>

#define DELAY_NS 2000000ull

static __u64 (*ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;

__attribute__((section("tc"), used)) int edt_delay(struct __sk_buff *skb) {
  const __u64 due = ktime_get_ns() + DELAY_NS;
  if (skb->tstamp < due) skb->tstamp = due;  // a later stamp (TCP pacing) stays
  return TC_ACT_OK;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
