#!/bin/sh
# module_loops.sh NM OBJECT...
# The library's modules must not depend on each other in a loop: a module
# (one object file) uses another when it refers to a symbol the other
# defines (a function it calls, or a table it reads).  Prints every use
# and fails, naming the loop, if some module depends on itself through
# others.
set -e
nm=$1
shift
for object in "$@"; do
    module=$(basename "$object")
    module=${module%.o}
    module=${module%.c}
    "$nm" -g --defined-only "$object" | awk -v m="$module" 'NF >= 3 { print "D", $3, m }'
    "$nm" -u "$object" | awk -v m="$module" '{ print "U", $NF, m }'
done | awk '
$1 == "D" { defined[$2] = $3; next }
{ used[++n] = $3 " " $2 }
function visit(v,   i, w, j, loop) {
    state[v] = 1
    path[++depth] = v
    for (i = 1; i <= outs[v]; i++) {
        w = out[v, i]
        if (state[w] == 1) {
            loop = w
            for (j = depth; path[j] != w; j--)
                loop = path[j] " -> " loop
            print "loop: " w " -> " loop
            bad = 1
        } else if (state[w] == 0) {
            visit(w)
        }
    }
    depth--
    state[v] = 2
}
END {
    for (i = 1; i <= n; i++) {
        split(used[i], u, " ")
        if (!(u[2] in defined) || defined[u[2]] == u[1])
            continue
        edge = u[1] SUBSEP defined[u[2]]
        if (!(edge in seen)) {
            seen[edge] = 1
            out[u[1], ++outs[u[1]]] = defined[u[2]]
            node[u[1]] = 1
            print u[1] " uses " defined[u[2]] " (" u[2] ")"
        }
    }
    for (v in node)
        if (state[v] == 0)
            visit(v)
    if (bad)
        exit 1
    print "no loops"
}'
