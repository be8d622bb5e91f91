;;; jobspec-lsp.el --- Flux jobspec and batch scripts through eglot  -*- lexical-binding: t; -*-

;; Load it from init.el:  (load "/path/to/jobspec-lsp/editors/emacs/jobspec-lsp.el")
;; Emacs 29 has eglot built in; on Emacs 28 install it (Debian: elpa-eglot).
;;
;; Jobspec files: YAML buffers (the server analyses only files named like jobspec or
;; whose top level has both `resources' and `tasks', so all YAML buffers is harmless),
;; in `yaml-mode' when it is installed, else `yaml-ts-mode' (Emacs 29 with the YAML
;; tree-sitter grammar), else `jobspec-yaml-mode', a small mode of this file: nothing
;; needs installing but eglot.
;; Batch scripts: shell buffers that hold an RFC 36 `#flux:' directive or Slurm
;; `#SBATCH' lines, or run `flux run|submit|batch|alloc|bulksubmit' (their command
;; lines are checked); other shell buffers are left to whatever else you use.
;; `M-x jobspec-lsp-show' opens the jobspec `flux batch' builds for the script.

(require 'eglot)

(defvar jobspec-yaml-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?' "\"" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?- "_" table)
    table)
  "Syntax of `jobspec-yaml-mode': `#' comments and quoted strings.")

(defconst jobspec-yaml-font-lock-keywords
  '(("^[ \t]*\\(?:- \\)*\\([^#:\n\"'{}[][^#:\n]*?\\):\\(?:[ \t]\\|$\\)"
     1 font-lock-variable-name-face)
    ("\\_<\\(true\\|false\\|null\\|yes\\|no\\|on\\|off\\)\\_>" . font-lock-constant-face))
  "Keys and YAML 1.1 booleans.")

(define-derived-mode jobspec-yaml-mode prog-mode "YAML"
  "YAML for jobspec files when neither `yaml-mode' nor `yaml-ts-mode' is at hand.
Comments, strings and keys highlighted; indentation by spaces, relative to the
line above."
  :syntax-table jobspec-yaml-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local font-lock-defaults '(jobspec-yaml-font-lock-keywords))
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width 2)
  (setq-local indent-line-function #'indent-relative))

(defun jobspec-lsp-yaml-mode ()
  "The major mode for YAML buffers.
`yaml-mode', else `yaml-ts-mode', else `jobspec-yaml-mode'."
  (cond ((or (fboundp 'yaml-mode) (locate-library "yaml-mode"))
         (unless (fboundp 'yaml-mode) (autoload 'yaml-mode "yaml-mode" nil t))
         'yaml-mode)
        ((and (fboundp 'yaml-ts-mode) (fboundp 'treesit-language-available-p)
              (treesit-language-available-p 'yaml))
         'yaml-ts-mode)
        (t 'jobspec-yaml-mode)))

(let ((mode (jobspec-lsp-yaml-mode)))
  (add-to-list 'auto-mode-alist `("\\.jobspec\\.ya?ml\\'" . ,mode))
  (add-to-list 'auto-mode-alist `("/jobspec\\.ya?ml\\'" . ,mode))
  ;; other YAML files open in it too unless something already claims them
  (unless (assoc-default "job.yaml" auto-mode-alist #'string-match)
    (add-to-list 'auto-mode-alist `("\\.ya?ml\\'" . ,mode) t)))
(put 'jobspec-yaml-mode 'eglot-language-id "yaml")
(add-to-list 'eglot-server-programs
             '((yaml-mode yaml-ts-mode jobspec-yaml-mode) . ("jobspec-lsp")))
(add-to-list 'eglot-server-programs '((sh-mode bash-ts-mode) . ("jobspec-lsp")))

(defconst jobspec-lsp-directive-regexp
  "^\\(?:[^[:alnum:]_\n]*\\(?:flux\\|FLUX\\):\\|#\\(?:SBATCH\\|BSUB\\|PBS\\)\\(?:[ \t]\\|$\\)\\)"
  "A line with an RFC 36 sentinel, ^([^\\w]*)(flux|FLUX):, or a Slurm, LSF or PBS directive.")

(defconst jobspec-lsp-flux-command-regexp
  (concat "\\(?:^\\|[[:space:];&|(`]\\)flux[[:space:]]+\\(?:mini[[:space:]]+\\)?"
          "\\(?:run\\|submit\\|batch\\|alloc\\|bulksubmit\\)\\(?:[[:space:]]\\|$\\)")
  "A Flux submission command line (the server decides what it is exactly).")

(defun jobspec-lsp-script-p ()
  "Whether the buffer is a batch script with `#flux:', `#SBATCH', `#BSUB' or `#PBS' directives,
or a shell script with a `flux run|submit|batch|alloc|bulksubmit' command line."
  (save-excursion
    (let ((case-fold-search nil)
          (limit (min (point-max) 200000)))
      (goto-char (point-min))
      (or (re-search-forward jobspec-lsp-directive-regexp limit t)
          (progn (goto-char (point-min))
                 (re-search-forward jobspec-lsp-flux-command-regexp limit t))))))

(defun jobspec-lsp-script-maybe ()
  "Start eglot (jobspec-lsp) in a shell buffer that is a batch script."
  (when (jobspec-lsp-script-p)
    (eglot-ensure)))

(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'yaml-ts-mode-hook #'eglot-ensure)
(add-hook 'jobspec-yaml-mode-hook #'eglot-ensure)
(add-hook 'sh-mode-hook #'jobspec-lsp-script-maybe)

(defun jobspec-lsp-show (&optional json)
  "Show the jobspec `flux batch' builds for this script.
With a prefix argument JSON, else YAML."
  (interactive "P")
  (let* ((server (eglot--current-server-or-lose))
         (got (jsonrpc-request server :workspace/executeCommand
                               `(:command "jobspec.showJobspec"
                                 :arguments [,(eglot--path-to-uri (buffer-file-name))
                                             ,(if json "json" "yaml")])))
         (err (plist-get got :error)))
    (if err
        (message "jobspec: %s" err)
      (with-current-buffer (get-buffer-create "*jobspec*")
        (let ((inhibit-read-only t))
          (erase-buffer)
          (insert (plist-get got :text)))
        (goto-char (point-min))
        (unless json (funcall (jobspec-lsp-yaml-mode)))
        (setq buffer-read-only t)
        (display-buffer (current-buffer))))))

(provide 'jobspec-lsp)
;;; jobspec-lsp.el ends here
