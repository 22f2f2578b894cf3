/* Graphviz DOT of a compiled frame: passes in execution order (culled ones grey and dashed),
 * resources as ellipses labelled with origin, size and the native slot they share, edges
 * coloured by access kind. Writes straight to the FILE: no allocation. */
#include <string.h>

#include "graph_internal.h"

/* One colour per access kind, so reads, writes, copies and storage read apart at a glance. */
static const char *const hl__dot_colors[HL__ACC_COUNT] = {
    "royalblue", "firebrick", "darkorange", "purple", "darkgreen", "darkgreen", "teal",
    "teal", "teal", "teal", "steelblue", "gray40", "gray40", "gray40", "black",
};

/* Text inside a DOT string: quotes and backslashes escaped. */
static void hl__dot_escape(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
}

hl_result hl_graph_write_dot(hl_graph *g, FILE *f) {
    if (!g || !f) return hl__fail(HL_ERR_VALIDATION, "hl_graph_write_dot: %s is NULL", g ? "f" : "graph");
    if (!g->compiled) {
        hl_result r = hl_graph_compile(g, NULL);
        if (r) return r;
    }
    const hl_graph_stats *st = &g->stats;
    fprintf(f, "digraph frame {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n");
    fprintf(f,
            "  label=\"%u passes (%u culled), %u transient objects for %llu bytes (%llu without reuse, lower bound "
            "%llu)\";\n",
            st->passes_total, st->passes_culled, st->transient_objects, (unsigned long long)st->bytes_with_reuse,
            (unsigned long long)st->bytes_without_reuse, (unsigned long long)st->bytes_lower_bound);
    /* passes: live ones in execution order first, then culled ones in insertion order */
    for (uint32_t k = 0; k < g->order_count; k++) {
        const hl__gpass *p = &g->passes[g->order_index[k]];
        fprintf(f, "  p%u [shape=box, style=filled, fillcolor=\"%s\", label=", g->order_index[k],
                p->kind == HL_GRAPH_PASS_COMPUTE ? "khaki" : p->kind == HL_GRAPH_PASS_COPY ? "lightcyan" : "lightblue");
        fputc('"', f);
        fprintf(f, "#%u ", k);
        hl__dot_escape(f, p->name);
        fprintf(f, "%s\"];\n", p->side_effect ? " (side effect)" : "");
    }
    for (uint32_t i = 0; i < g->passes_count; i++) {
        const hl__gpass *p = &g->passes[i];
        if (p->live) continue;
        fprintf(f, "  p%u [shape=box, style=\"dashed,filled\", fillcolor=gray90, fontcolor=gray50, color=gray60, label=",
                i);
        fputc('"', f);
        hl__dot_escape(f, p->name);
        fputs(" (culled)\"];\n", f);
    }
    /* keep live passes left to right in execution order */
    for (uint32_t k = 1; k < g->order_count; k++)
        fprintf(f, "  p%u -> p%u [style=invis, weight=10];\n", g->order_index[k - 1], g->order_index[k]);
    for (uint32_t i = 0; i < g->res_count; i++) {
        const hl__gres *r = &g->res[i];
        const char *origin = r->origin == HL__RES_IMPORTED   ? "imported"
                             : r->origin == HL__RES_DEFERRED ? "deferred import"
                             : r->extracted                  ? "extracted"
                                                             : "transient";
        fprintf(f, "  r%u [shape=%s, label=", i, r->is_buffer ? "cds" : "ellipse");
        fputc('"', f);
        hl__dot_escape(f, r->name);
        if (r->is_buffer) fprintf(f, "\\n%s buffer %llu B", origin, (unsigned long long)r->bdesc.size);
        else
            fprintf(f, "\\n%s %ux%u %s", origin, r->tdesc.width, r->tdesc.height,
                    hl_rhi_format_get_info(r->tdesc.format) ? hl_rhi_format_get_info(r->tdesc.format)->name : "?");
        if (r->live && r->slot != HL__GRAPH_NONE) {
            uint32_t sharers = 0;
            for (uint32_t j = 0; j < g->res_count; j++) sharers += g->res[j].live && g->res[j].slot == r->slot;
            fprintf(f, "\\nslot %u%s [%u..%u]", r->slot, sharers > 1 ? " (shared)" : "", r->first, r->last);
        }
        fputc('"', f);
        if (!r->live) fputs(", style=dashed, color=gray60, fontcolor=gray50", f);
        else if (r->slot != HL__GRAPH_NONE && g->slots[r->slot].first_res != i)
            fputs(", style=filled, fillcolor=palegreen", f); /* reuses an earlier transient's object */
        else if (r->output) fputs(", style=bold", f);
        fputs("];\n", f);
    }
    /* access edges: reads point resource -> pass, writes pass -> resource */
    for (uint32_t i = 0; i < g->acc_count; i++) {
        const hl__gaccess *a = &g->acc[i];
        bool live = g->passes[a->pass].live;
        const char *style = live ? "solid" : "dashed";
        const char *color = live ? hl__dot_colors[a->kind] : "gray70";
        if (a->reads)
            fprintf(f, "  r%u -> p%u [color=%s, style=%s, label=\"%s\", fontsize=8];\n", a->res, a->pass, color, style,
                    hl__gacc_names[a->kind]);
        if (a->writes)
            fprintf(f, "  p%u -> r%u [color=%s, style=%s, label=\"%s%s\", fontsize=8];\n", a->pass, a->res, color,
                    style, hl__gacc_names[a->kind], a->discard ? " (discard)" : "");
    }
    for (uint32_t i = 0; i < g->deps_count; i++)
        fprintf(f, "  p%u -> p%u [style=dotted, label=\"depends\", fontsize=8];\n", g->deps[i].before, g->deps[i].after);
    fputs("}\n", f);
    return ferror(f) ? hl__fail(HL_ERR_IO, "hl_graph_write_dot: write failed") : HL_OK;
}
