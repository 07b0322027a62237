# SPDX-License-Identifier: GPL-2.0-only
"""bench/run's parts: one module per part, common.py for what they share."""
