# bash completion for clean_sim_trace                      -*- shell-script -*-
# Installed as <datadir>/bash-completion/completions/clean_sim_trace, where
# bash-completion loads it on the first <TAB> after the command name; it can
# also be sourced by hand. It needs nothing from bash-completion itself.
# tests/cli/t_completion.sh checks that the options below are exactly those
# of --help.

_clean_sim_trace()
{
	local cur prev opt
	local -a opts
	opts=(--output-dir --keep-scalar --raw-metrics --no-copy-raw
		--keep-cache-ccu --no-counters --run --core --window --gzip --format
		--jobs --shard --check --compare --fail-if-slower --summary-only --json
		--quiet --help --version
		-o -z -j -q -h)
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=""
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# "--run=a" arrives as "--run" "=" "a" when '=' breaks words (bash's
	# default COMP_WORDBREAKS), or as one word when it does not.
	if [[ $cur == "=" && $prev == --* ]]; then
		opt=$prev
		cur=""
	elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
	else
		opt=$prev
	fi

	case $opt in
	-o | --output-dir)
		compopt -o filenames 2>/dev/null || true
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return
		;;
	--check)
		compopt -o filenames 2>/dev/null || true
		mapfile -t COMPREPLY < <(compgen -d -- "$cur"
			compgen -f -X '!*.json' -- "$cur"
			compgen -f -X '!*.json.gz' -- "$cur")
		return
		;;
	--compare)
		# BASE: an output folder, a batch output folder or a summary file.
		compopt -o filenames 2>/dev/null || true
		mapfile -t COMPREPLY < <(compgen -d -- "$cur"
			compgen -f -X '!*.json' -- "$cur")
		return
		;;
	--run)
		# A run number is 1, 2, ... as the file holds; "all" is the word.
		mapfile -t COMPREPLY < <(compgen -W "all" -- "$cur")
		return
		;;
	--format)
		mapfile -t COMPREPLY < <(compgen -W "json perfetto json,perfetto" -- "$cur")
		return
		;;
	-j | --jobs)
		local n
		n=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || n=1
		[[ $n =~ ^[0-9]+$ ]] || n=1
		mapfile -t COMPREPLY < <(compgen -W "$(seq 1 "$n")" -- "$cur")
		return
		;;
	--core | --window | --shard | --fail-if-slower)
		# Free-form values (a glob, A:B, K/N, a percentage): nothing to offer.
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${opts[*]}" -- "$cur")
		return
	fi
	# PATH: folders (OPPROF_*, simulator/, a build above dumps) and dumps.
	compopt -o filenames 2>/dev/null || true
	mapfile -t COMPREPLY < <(compgen -d -- "$cur"
		compgen -f -X '!*.bin' -- "$cur"
		compgen -f -X '!*.bin.gz' -- "$cur")
} &&
	complete -F _clean_sim_trace clean_sim_trace
