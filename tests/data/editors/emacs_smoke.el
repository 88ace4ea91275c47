;;; emacs_smoke.el --- eglot against `replaylint server' (tests/test_editor_emacs.py)  -*- lexical-binding: t -*-
;; Loaded in batch mode after the README's configuration: open a shell script and a prime-rl
;; config with replay problems, wait for their diagnostics, list the code actions at the script's,
;; apply `replaylint-fix-all', wait for the diagnostics to clear. Written for eglot 1.9 (Emacs 28
;; with Debian's elpa-eglot) and newer.

(unless (require 'eglot nil t)
  (package-activate-all)  ; an interactive Emacs does this before init.el; batch mode does not
  (require 'eglot nil t))

(defun smoke-report (key value)
  (append-to-file (format "%s: %s\n" key value) nil (expand-file-name "result.txt" (getenv "PROJECT"))))

(defun smoke-wait (predicate)
  "Wait up to 20 s for PREDICATE. Batch Emacs never idles, so the idle timers that send the
buffer's changes to the server are run here, as an Emacs whose user stopped typing runs them."
  (let ((deadline (+ (float-time) 20)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.1)
      (mapc #'timer-event-handler (copy-sequence timer-idle-list)))
    (funcall predicate)))

(defun smoke-diagnostics ()
  (mapconcat (lambda (diagnostic)
               (let ((start (flymake-diagnostic-beg diagnostic)))
                 (save-excursion
                   (goto-char start)
                   (format "%d:%d %s" (line-number-at-pos) (1+ (current-column)) (flymake-diagnostic-text diagnostic)))))
             (flymake-diagnostics) " | "))

(defun smoke-open (name)
  (find-file (expand-file-name name (getenv "PROJECT")))
  ;; What the command loop does after the command that opened the file: post-command-hook
  ;; (`eglot-ensure' connects there) and redisplay (Flymake starts once the buffer is shown).
  (run-hooks 'post-command-hook)
  (run-window-configuration-change-hook)
  (smoke-wait #'flymake-diagnostics)
  (smoke-report (concat "mode " name) major-mode)
  (smoke-report (concat "diagnostics " name) (smoke-diagnostics)))

(if (not (featurep 'eglot))
    (smoke-report "eglot" "missing")
  (smoke-report "eglot" "loaded")
  (smoke-open "rl.toml")
  (smoke-open "serve.sh")
  (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
  (smoke-report "actions" (mapconcat (lambda (action) (plist-get action :title)) (eglot-code-actions (point) (1+ (point))) " | "))
  (replaylint-fix-all)
  (smoke-report "buffer" (string-trim-right (buffer-string)))
  (smoke-report "cleared after fix" (if (smoke-wait (lambda () (null (flymake-diagnostics)))) "true" "false")))
(kill-emacs 0)
