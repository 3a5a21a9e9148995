# The relative links of Markdown files that do not resolve. Run in the
# folder the files' paths are relative to:
#   awk -f md_links.awk README.md docs/*.md
# prints "FILE: TARGET: why" per link whose file does not exist there, or
# whose #anchor names no heading of its target among the files given
# (GitHub's anchors: lowercased, all but letters, digits, '_', '-' and
# spaces dropped, spaces as '-', "-1", "-2", ... on repeats), and on the
# last line "N links" (how many were looked at). Links with a scheme
# (https:, mailto:) are not checked; nor is what code spans and fenced or
# indented code blocks hold.

function slug(heading,    s) {
	s = tolower(heading)
	gsub(/[^a-z0-9 _-]/, "", s)
	gsub(/ /, "-", s)
	return s
}

# normal(PATH): PATH without "." and "dir/.." segments.
function normal(path,    n, i, part, out, k) {
	n = split(path, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "" || part[i] == ".")
			continue
		if (part[i] == ".." && k > 0 && out[k] != "..")
			k--
		else
			out[++k] = part[i]
	}
	path = ""
	for (i = 1; i <= k; i++)
		path = path (i > 1 ? "/" : "") out[i]
	return path
}

FNR == 1 {
	fence = 0
	delete seen
	dir = FILENAME
	if (!sub(/\/[^\/]*$/, "/", dir))
		dir = ""
	self = normal(FILENAME)
}

/^ *```/ { fence = !fence; next }
fence { next }
/^    / { next }

/^#+ / {
	heading = $0
	sub(/^#+ +/, "", heading)
	sub(/ +#* *$/, "", heading)
	s = slug(heading)
	if (s in seen)
		s = s "-" seen[s]++
	else
		seen[s] = 1
	anchor[self "#" s] = 1
}

{
	text = $0
	gsub(/`[^`]*`/, "", text)
	while (match(text, /\]\([^)]*\)/)) {
		target = substr(text, RSTART + 2, RLENGTH - 3)
		text = substr(text, RSTART + RLENGTH)
		if (target ~ /^[a-zA-Z][a-zA-Z0-9+.-]*:/)
			continue
		n_links++
		from[n_links] = FILENAME
		link[n_links] = target
		path = target
		sub(/#.*/, "", path)
		file[n_links] = path == "" ? self : normal(dir path)
		frag[n_links] = target ~ /#/ ? target : ""
		sub(/^[^#]*#/, "", frag[n_links])
	}
}

END {
	for (i = 1; i <= n_links; i++) {
		if ((getline line < file[i]) < 0) {
			print from[i] ": " link[i] ": no file " file[i]
			continue
		}
		close(file[i])
		if (frag[i] != "" && !((file[i] "#" frag[i]) in anchor))
			print from[i] ": " link[i] ": no heading #" frag[i] " in " file[i]
	}
	print n_links + 0 " links"
}
