/* Printing the pipeline's peer references in `gpurf validate`: each peer
 * figure beside ours, with the error and the note that says how the peer
 * counts differently. Reported, never gated. */
#include <string.h>

#include "cli/validate_report.h"

static double error_of(const gpurf_reproduce_peer_row *r) {
  return r->has_ratio ? r->ratio - 1.0 : 0.0;
}

void vp_print_text(sbuf *o, const vr_peer *peers, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const gpurf_reproduce_peer *p = peers[i].peer;
    sb_printf(o, "\nPipeline beside a peer simulator (reported, not gated): %s, design %s\n",
              peers[i].shown_path, gpurf_reproduce_peer_design(p));
    sb_printf(o, "  source: %s\n", gpurf_reproduce_peer_source(p));
    sb_printf(o, "  %-24s %-22s %10s %10s %8s  %s\n", "trace", "metric", "ours", "peer", "error",
              "how the peer counts");
    for (int k = 0; k < gpurf_reproduce_peer_rows(p); k++) {
      const gpurf_reproduce_peer_row *r = gpurf_reproduce_peer_row_get(p, k);
      sb_printf(o, "  %-24s %-22s %10.0f %10.0f ", r->trace, r->metric, r->ours, r->peer);
      if (r->has_ratio) sb_printf(o, "%7.1f%%", error_of(r) * 100);
      else sb_printf(o, "%8s", "-");
      if (r->note[0]) sb_printf(o, "  %s", r->note);
      sb_printf(o, "\n");
    }
  }
}

void vp_json(jw *w, const vr_peer *peers, size_t n) {
  jw_arr_begin(w, "pipeline_peers");
  for (size_t i = 0; i < n; i++) {
    const gpurf_reproduce_peer *p = peers[i].peer;
    jw_obj_begin(w, NULL);
    jw_str(w, "file", peers[i].shown_path);
    jw_str(w, "source", gpurf_reproduce_peer_source(p));
    jw_str(w, "design", gpurf_reproduce_peer_design(p));
    jw_bool(w, "gated", 0);
    jw_arr_begin(w, "rows");
    for (int k = 0; k < gpurf_reproduce_peer_rows(p); k++) {
      const gpurf_reproduce_peer_row *r = gpurf_reproduce_peer_row_get(p, k);
      jw_obj_begin(w, NULL);
      jw_str(w, "trace", r->trace);
      jw_str(w, "metric", r->metric);
      jw_int(w, "line", r->line);
      jw_num(w, "ours", r->ours);
      jw_num(w, "peer", r->peer);
      if (r->has_ratio) jw_num(w, "error", error_of(r));
      jw_str(w, "note", r->note);
      jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
  }
  jw_arr_end(w);
}

/* In the bank sets' columns: kind "peer", the trace as config. */
void vp_print_csv(sbuf *o, const vr_peer *peers, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const gpurf_reproduce_peer *p = peers[i].peer;
    for (int k = 0; k < gpurf_reproduce_peer_rows(p); k++) {
      const gpurf_reproduce_peer_row *r = gpurf_reproduce_peer_row_get(p, k);
      sb_printf(o, "%s,peer,%s,%s,%.8g,%.8g,", peers[i].name, r->trace, r->metric, r->ours,
                r->peer);
      if (r->has_ratio) sb_printf(o, "%.6g", error_of(r));
      sb_printf(o, ",,,no,\n");
    }
  }
}
