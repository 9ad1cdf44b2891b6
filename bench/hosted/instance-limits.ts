// Preloaded into each of the hosted bench's instances (processes.ts): the per-IP limit their
// upstream budgets keep (the address budget's limit, src/core/rate-budget.ts DOCUMENTED_POLICY) is
// BENCH_UPSTREAM_PER_IP when set, the one the bench's simulator keeps (deployment.ts). The storms
// raise the simulator's limit to measure the instances' work, not the documented 240 calls a minute
// per address: the instances are told the same, or their own address budget would refuse what the
// simulator lets through (5 x N mints in a minute from three addresses).
import { DOCUMENTED_POLICY } from '../../src/core/rate-budget.ts';

const perIp = Number(process.env.BENCH_UPSTREAM_PER_IP);
if (perIp > 0) DOCUMENTED_POLICY.perIp = perIp;
