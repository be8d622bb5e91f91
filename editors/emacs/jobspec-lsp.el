;;; jobspec-lsp.el --- Flux jobspec and batch scripts through eglot  -*- lexical-binding: t; -*-

;; Load it from init.el:  (load "/path/to/jobspec-lsp/editors/emacs/jobspec-lsp.el")
;; Emacs 29 has eglot built in; on Emacs 28 install it (Debian: elpa-eglot).
;;
;; Jobspec files: YAML buffers (the server analyses only files named like jobspec or
;; whose top level has both `resources' and `tasks', so all YAML buffers is harmless).
;; Batch scripts: shell buffers that hold an RFC 36 `#flux:' directive or Slurm
;; `#SBATCH' lines; other shell buffers are left to whatever else you use.
;; `M-x jobspec-lsp-show' opens the jobspec `flux batch' builds for the script.

(require 'eglot)

(add-to-list 'auto-mode-alist '("\\.jobspec\\.ya?ml\\'" . yaml-mode))
(add-to-list 'eglot-server-programs '((yaml-mode yaml-ts-mode) . ("jobspec-lsp")))
(add-to-list 'eglot-server-programs '((sh-mode bash-ts-mode) . ("jobspec-lsp")))

(defconst jobspec-lsp-directive-regexp
  "^\\(?:[^[:alnum:]_\n]*\\(?:flux\\|FLUX\\):\\|#SBATCH\\)"
  "A line with an RFC 36 sentinel, ^([^\\w]*)(flux|FLUX):, or a Slurm directive.")

(defun jobspec-lsp-script-p ()
  "Whether the buffer is a batch script with `#flux:' or `#SBATCH' directives."
  (save-excursion
    (goto-char (point-min))
    (let ((case-fold-search nil))
      (re-search-forward jobspec-lsp-directive-regexp
                         (min (point-max) 200000) t))))

(defun jobspec-lsp-script-maybe ()
  "Start eglot (jobspec-lsp) in a shell buffer that is a batch script."
  (when (jobspec-lsp-script-p)
    (eglot-ensure)))

(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'sh-mode-hook #'jobspec-lsp-script-maybe)

(defun jobspec-lsp-show (&optional json)
  "Show the jobspec `flux batch' builds for this script (JSON with a prefix argument)."
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
        (when (and (not json) (fboundp 'yaml-mode)) (yaml-mode))
        (setq buffer-read-only t)
        (display-buffer (current-buffer))))))

(provide 'jobspec-lsp)
;;; jobspec-lsp.el ends here
