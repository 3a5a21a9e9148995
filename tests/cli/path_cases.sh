# The cases of the critical-path tests (t_critical_path.sh,
# t_critical_path_what_if.sh): gen_path's kernels, each simulated, built
# into a dump by gen_bin and converted. Env (set by ctest): CSIM_GENPATH,
# CSIM_PATHCHECK, and lib.sh's.
: "${CSIM_GENPATH:?set CSIM_GENPATH to the gen_path executable}"
: "${CSIM_PATHCHECK:?set CSIM_PATHCHECK to the path_recheck executable}"

path_shapes="mix vec cube a5 cross runs"
# seed % 4 is the bound kind (transfer, vector, scalar, sync), seed / 4 % 2
# whether MTE2, MTE1 and RVECEX are pipelined: 0..7 is every combination.
path_seeds="0 1 2 3 4 5 6 7"

# path_case SHAPE SEED [OPTION...]: $tmp/SHAPE-SEED$path_tag/ gets
# gen_path's files (gen_path run with $path_gen), visualize_data.bin and
# out/ (the conversion, --run all for the appended runs, with OPTIONs);
# fails when a step does.
path_gen=()
path_tag=
path_case() {
	local shape=$1 seed=$2 d="$tmp/$1-$2$path_tag" run=()
	shift 2
	[ "$shape" = runs ] && run=(--run all)
	rm -rf "$d"
	mkdir -p "$d"
	"$CSIM_GENPATH" "$shape" "$seed" "$d" "${path_gen[@]}" >"$d/gen.log" &&
		"$CSIM_GEN" "$d/dump.recipe" "$d/visualize_data.bin" &&
		"$CSIM_BIN" "$d/visualize_data.bin" -o "$d/out" --no-copy-raw -q "${run[@]}" "$@"
}
