<?php
/**
 * The editor script's dependencies: WordPress's own packages, as globals, so the script needs no build step.
 *
 * @package ClinicBooking
 */

return array(
	'dependencies' => array( 'wp-blocks', 'wp-element', 'wp-components', 'wp-block-editor', 'wp-i18n' ),
	'version'      => '0.1.0',
);
