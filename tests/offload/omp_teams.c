/* num_teams / thread_limit and the values of omp_get_team_num,
   omp_get_num_teams, omp_get_thread_num, omp_get_num_threads,
   omp_get_level; nested parallel inside teams; teams-private data. */
#include "common.h"
#define MAXT 64
#define MAXTH 256

int main(void) {
  omp_device_banner("omp_teams");
  static int nthr[MAXT], tnum_seen[MAXT][MAXTH], nteams_seen[MAXT];
  int nteams = -1, flag = -1;
  memset(nthr, 0, sizeof nthr); memset(tnum_seen, 0, sizeof tnum_seen);
  for (int i = 0; i < MAXT; i++) nteams_seen[i] = -1;

  #pragma omp target teams num_teams(6) thread_limit(96) map(tofrom: nthr, tnum_seen, nteams, nteams_seen, flag)
  {
    int t = omp_get_team_num();
    if (t == 0) nteams = omp_get_num_teams();
    nteams_seen[t] = omp_get_num_teams();
    #pragma omp parallel
    {
      int th = omp_get_thread_num();
      if (th == 0) nthr[t] = omp_get_num_threads();
      if (t == 0 && th == 0) flag = omp_is_initial_device();
      if (th < MAXTH) {
        #pragma omp atomic
        tnum_seen[t][th]++;
      }
    }
  }
  CHECK_RAN_ON_DEVICE(flag, "teams region");
  printf("  num_teams(6) thread_limit(96): got %d teams, team0 %d threads\n", nteams, nthr[0]);
  CHECK(nteams >= 1 && nteams <= 6, "num_teams gave %d", nteams);
  if (g_expect_device) CHECK(nteams == 6, "device: expected exactly 6 teams, got %d", nteams);
  int bad = 0;
  for (int t = 0; t < nteams && t < MAXT; t++) {
    if (nteams_seen[t] != nteams) bad++;
    if (nthr[t] < 1 || nthr[t] > 96) bad++;
    for (int th = 0; th < MAXTH; th++)
      if (tnum_seen[t][th] != (th < nthr[t] ? 1 : 0)) bad++;
  }
  CHECK(bad == 0, "team/thread numbering: %d inconsistencies", bad);

  /* default teams launch: distribute iterations and record the team of each */
  enum { NI = 2000 };
  static int team_of[NI], thr_of[NI], nt_of[NI];
  int nteams2 = 0;
  #pragma omp target teams distribute parallel for map(from: team_of, thr_of, nt_of) map(tofrom: nteams2)
  for (int i = 0; i < NI; i++) {
    team_of[i] = omp_get_team_num(); thr_of[i] = omp_get_thread_num(); nt_of[i] = omp_get_num_threads();
    if (i == 0) nteams2 = omp_get_num_teams();
  }
  bad = 0;
  for (int i = 0; i < NI; i++) {
    if (team_of[i] < 0 || team_of[i] >= nteams2) bad++;
    if (thr_of[i] < 0 || thr_of[i] >= nt_of[i]) bad++;
    if (i > 0 && team_of[i] < team_of[i - 1]) bad++;   /* distribute gives contiguous chunks in order */
  }
  printf("  default launch: %d teams, %d threads in team of i=0\n", nteams2, nt_of[0]);
  CHECK(bad == 0 && nteams2 >= 1, "default launch numbering: %d bad, %d teams", bad, nteams2);

  /* num_threads on an inner parallel */
  int inner_n = -1, lvl = -1, act = -1;
  #pragma omp target teams num_teams(1) map(tofrom: inner_n, lvl, act)
  {
    #pragma omp parallel num_threads(8)
    {
      if (omp_get_thread_num() == 0) { inner_n = omp_get_num_threads(); lvl = omp_get_level(); act = omp_get_active_level(); }
    }
  }
  printf("  parallel num_threads(8): %d threads, level %d, active level %d\n", inner_n, lvl, act);
  CHECK(inner_n >= 1 && inner_n <= 8, "num_threads(8) gave %d", inner_n);
  CHECK(lvl == 1, "omp_get_level in parallel = %d", lvl);

  /* work-sharing inside a team: for + single + barrier + master + sections */
  enum { M = 300 };
  static int wsa[M]; int single_cnt = 0, master_cnt = 0, sec_a = 0, sec_b = 0, post_barrier_ok = 1;
  #pragma omp target teams num_teams(1) thread_limit(64) map(tofrom: wsa, single_cnt, master_cnt, sec_a, sec_b, post_barrier_ok)
  #pragma omp parallel
  {
    #pragma omp for schedule(static)
    for (int i = 0; i < M; i++) wsa[i] = i * 3;
    /* implicit barrier: everyone sees all writes */
    if (wsa[M - 1] != (M - 1) * 3 || wsa[0] != 0) post_barrier_ok = 0;
    #pragma omp single
    { single_cnt++; }
    #pragma omp masked
    { master_cnt++; }
    #pragma omp barrier
    #pragma omp sections
    {
      #pragma omp section
      { sec_a += 1; }
      #pragma omp section
      { sec_b += 2; }
    }
  }
  int bw = 0; for (int i = 0; i < M; i++) bw += wsa[i] != i * 3;
  CHECK(bw == 0 && single_cnt == 1 && master_cnt == 1 && sec_a == 1 && sec_b == 2 && post_barrier_ok,
        "worksharing bw=%d single=%d master=%d sec=%d,%d barrier=%d", bw, single_cnt, master_cnt, sec_a, sec_b, post_barrier_ok);

  /* teams-private variable and per-team partial sums */
  static long part[16]; memset(part, 0, sizeof part);
  int nt3 = 0;
  #pragma omp target teams num_teams(5) map(tofrom: part, nt3)
  {
    long mine = 0;   /* private to the team */
    int t = omp_get_team_num(), n = omp_get_num_teams();
    if (t == 0) nt3 = n;
    #pragma omp parallel for reduction(+: mine)
    for (int i = t; i < 1000; i += n) mine += i;
    part[t] = mine;
  }
  long tot = 0; for (int t = 0; t < 16; t++) tot += part[t];
  CHECK(tot == 999L * 1000 / 2, "per-team partial sums total=%ld (teams=%d)", tot, nt3);

  /* (kept last) nested parallel inside teams/parallel: inner region values consistent */
  static int nest[4][8][8];
  memset(nest, 0, sizeof nest);
  int inner_levels_ok = 1;
  #pragma omp target teams num_teams(4) thread_limit(64) map(tofrom: nest, inner_levels_ok)
  {
    int t = omp_get_team_num();
    #pragma omp parallel num_threads(4)
    {
      int o = omp_get_thread_num();
      int olvl = omp_get_level();
      #pragma omp parallel num_threads(2)
      {
        int in = omp_get_thread_num(), nin = omp_get_num_threads();
        if (omp_get_level() != olvl + 1 || omp_get_ancestor_thread_num(olvl) != o || in >= nin)
          inner_levels_ok = 0;
        if (t < 4 && o < 8 && in < 8) {
          #pragma omp atomic
          nest[t][o][in] += 1;
        }
      }
    }
  }
  int total = 0; bad = 0;
  for (int t = 0; t < 4; t++) for (int o = 0; o < 8; o++) for (int i = 0; i < 8; i++) { total += nest[t][o][i]; if (nest[t][o][i] > 1) bad++; }
  printf("  nested parallel: %d (team,outer,inner) triples executed\n", total);
  CHECK(inner_levels_ok && bad == 0 && total >= 1, "nested parallel: levels_ok=%d dup=%d total=%d", inner_levels_ok, bad, total);

  return finish("omp_teams");
}
