# experiments/term.gp: set the terminal from the extension of `output`
# (.png, .svg or .pdf) at w x h pixels (a PDF: w/100 x h/100 inches, a
# vector figure for LaTeX) in font `font` (default 'sans,10'), then set
# the output.  A plot script sets w, h and output, then loads it:
#   load system("dirname '".ARG0."'")."/../term.gp"
if (!exists("font")) font = 'sans,10'
term_ext = output[strlen(output)-2:]
if (term_ext eq 'png') { set terminal pngcairo size w,h font font }
if (term_ext eq 'svg') { set terminal svg size w,h font font background '#ffffff' }
if (term_ext eq 'pdf') { set terminal pdfcairo size w/100.0,h/100.0 font font }
if (term_ext ne 'png' && term_ext ne 'svg' && term_ext ne 'pdf') {
  print 'term.gp: output must end .png, .svg or .pdf, not '.output; exit status 2
}
set output output
