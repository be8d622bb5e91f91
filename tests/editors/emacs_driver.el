;; Drives Emacs like a user: editors/emacs/jobspec-lsp.el (the setup docs/editors.md
;; gives), a jobspec or batch script buffer, and the diagnostics flymake shows,
;; printed as "DIAG LINE: TEXT"; "SCRIPT t/nil" says whether the buffer counts as a
;; batch script, and for a script "SHOWN ..." the first line of jobspec-lsp-show;
;; "MODE ..." the buffer's major mode. With JOBSPEC_NO_YAML_MODE set, yaml-mode is
;; made unreachable first, as on a machine without it.
(require 'package)
(when (getenv "JOBSPEC_NO_YAML_MODE")
  (setq package-load-list '((yaml-mode nil) all))
  (setq load-path (seq-remove (lambda (dir) (string-match-p "yaml-mode" dir)) load-path)))
(package-initialize)
(load (expand-file-name "editors/emacs/jobspec-lsp.el" (getenv "JOBSPEC_REPO")))
(find-file (getenv "JOBSPEC_FILE"))
(princ (format "MODE %s\n" major-mode))
(princ (format "SCRIPT %s\n" (if (jobspec-lsp-script-p) "t" "nil")))
(when (or (derived-mode-p 'yaml-mode 'yaml-ts-mode 'jobspec-yaml-mode) (jobspec-lsp-script-p))
  ;; eglot-ensure waits for the command loop, which --batch has not: connect now
  (apply #'eglot (eglot--guess-contact))
  (let ((tries 0))
    (while (and (< tries 200) (null (flymake-diagnostics)))
      (accept-process-output nil 0.1)
      (setq tries (1+ tries))))
  (dolist (d (sort (flymake-diagnostics)
                   (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
    (princ (format "DIAG %d: %s\n" (line-number-at-pos (flymake-diagnostic-beg d))
                   (flymake-diagnostic-text d))))
  (when (jobspec-lsp-script-p)
    (jobspec-lsp-show)
    (with-current-buffer "*jobspec*"
      (princ (format "SHOWN %s\n" (buffer-substring (point-min) (line-end-position)))))))
(kill-emacs 0)
